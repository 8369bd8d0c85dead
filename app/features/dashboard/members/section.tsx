import type { ReactNode } from 'react'

/** One part of the Members tab, with its heading: members, invitations, projects, keys. */
export function Section({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <section
      aria-labelledby={`${id}-heading`}
      className="flex flex-col gap-3 border-t pt-4"
      data-testid={`${id}-section`}
    >
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h3>
      {children}
    </section>
  )
}
