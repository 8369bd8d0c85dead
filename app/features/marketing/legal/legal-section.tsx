import type * as React from 'react'

/** A numbered clause: an h3 and its paragraphs. */
export function Clause({ title, children }: { title: React.ReactNode; children: React.ReactNode }) {
  return (
    <section className="mt-8">
      <h3 className="text-lg font-semibold">{title}</h3>
      <div className="mt-2 space-y-3 text-muted-foreground [&_li]:ml-5 [&_li]:list-disc [&_strong]:text-foreground">
        {children}
      </div>
    </section>
  )
}

export function LegalSection({
  id,
  title,
  children,
}: {
  id: string
  title: React.ReactNode
  children: React.ReactNode
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 border-t pt-10 first:border-0 first:pt-0">
      <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight">
        {title}
      </h2>
      {children}
    </section>
  )
}
