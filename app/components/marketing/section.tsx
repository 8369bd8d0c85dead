import type * as React from 'react'
import { cn } from '~/lib/utils'

/** A titled page section; the heading names the landmark, so screen readers can jump between sections. */
export function Section({
  id,
  title,
  intro,
  action,
  children,
  className,
}: {
  id: string
  title: React.ReactNode
  intro?: React.ReactNode
  action?: React.ReactNode
  children: React.ReactNode
  className?: string
}) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className={cn('scroll-mt-20 py-12 sm:py-16', className)}>
      <div className="mx-auto max-w-6xl px-4">
        <div className="mb-8 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div className="max-w-2xl">
            <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight sm:text-3xl">
              {title}
            </h2>
            {intro && <p className="mt-2 text-muted-foreground">{intro}</p>}
          </div>
          {action}
        </div>
        {children}
      </div>
    </section>
  )
}

/** The first block of an inner page: its one h1 and a lead paragraph. */
export function PageHeader({
  eyebrow,
  title,
  lead,
  children,
}: {
  eyebrow?: React.ReactNode
  title: React.ReactNode
  lead?: React.ReactNode
  children?: React.ReactNode
}) {
  return (
    <div className="border-b bg-gradient-to-b from-accent/60 to-background">
      <div className="mx-auto max-w-6xl px-4 py-14 sm:py-20">
        {eyebrow && <p className="mb-3 text-sm font-medium text-primary">{eyebrow}</p>}
        <h1 className="max-w-3xl text-4xl font-semibold tracking-tight text-balance sm:text-5xl">{title}</h1>
        {lead && <p className="mt-4 max-w-2xl text-lg text-muted-foreground">{lead}</p>}
        {children}
      </div>
    </div>
  )
}
