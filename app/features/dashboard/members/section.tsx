import type { ReactNode } from 'react'

/**
 * One part of the Members tab under its heading: members, invitations, projects, keys. A plain block, not a
 * named region: the tab's own region is named "Members" too, and two landmarks of one name confuse navigation.
 */
export function Section({ id, title, children }: { id: string; title: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 border-t pt-4" data-testid={`${id}-section`}>
      <h3 id={`${id}-heading`} className="text-base font-semibold">
        {title}
      </h3>
      {children}
    </div>
  )
}
