import type * as React from 'react'
import { cn } from '~/lib/utils'

/**
 * A table that scrolls sideways in its box when too wide (phones), with a shadow on each side that has more to
 * scroll to (`.scroll-cue`); `surface` is what it sits on, so the cue's cover matches it. With a `label`
 * the box is a named region a keyboard can focus and scroll.
 */
export function Table({
  className,
  surface = 'card',
  label,
  ...props
}: React.ComponentProps<'table'> & { surface?: 'card' | 'page'; label?: string }) {
  return (
    <div
      data-slot="table-container"
      className={cn(
        'scroll-cue relative w-full overflow-x-auto',
        surface === 'page' && 'scroll-cue-page',
        label && 'rounded-md focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
      )}
      {...(label && { role: 'region', 'aria-label': label, tabIndex: 0 })}
    >
      <table data-slot="table" className={cn('w-full caption-bottom text-sm', className)} {...props} />
    </div>
  )
}

export function TableHeader({ className, ...props }: React.ComponentProps<'thead'>) {
  return <thead data-slot="table-header" className={cn('[&_tr]:border-b', className)} {...props} />
}

export function TableBody({ className, ...props }: React.ComponentProps<'tbody'>) {
  return <tbody data-slot="table-body" className={cn('[&_tr:last-child]:border-0', className)} {...props} />
}

export function TableRow({ className, ...props }: React.ComponentProps<'tr'>) {
  return (
    <tr data-slot="table-row" className={cn('border-b transition-colors hover:bg-muted/50', className)} {...props} />
  )
}

/** `numeric` right-aligns the column's heading, as its figures are. */
export function TableHead({
  className,
  numeric = false,
  ...props
}: React.ComponentProps<'th'> & { numeric?: boolean }) {
  return (
    <th
      data-slot="table-head"
      className={cn(
        'h-10 px-2 align-middle font-medium whitespace-nowrap text-muted-foreground',
        numeric ? 'text-right' : 'text-left',
        className,
      )}
      {...props}
    />
  )
}

/**
 * `numeric` right-aligns the figure with tabular digits, under a `numeric` heading. A cell keeps to one line
 * unless it may `wrap` (a note, a list of details): then the table narrows to its box by wrapping it.
 */
export function TableCell({
  className,
  numeric = false,
  wrap = false,
  ...props
}: React.ComponentProps<'td'> & { numeric?: boolean; wrap?: boolean }) {
  return (
    <td
      data-slot="table-cell"
      className={cn(
        'p-2 align-middle',
        wrap ? 'whitespace-normal' : 'whitespace-nowrap',
        numeric && 'text-right tabular-nums',
        className,
      )}
      {...props}
    />
  )
}

export function TableCaption({ className, ...props }: React.ComponentProps<'caption'>) {
  return (
    <caption data-slot="table-caption" className={cn('mt-4 text-sm text-muted-foreground', className)} {...props} />
  )
}
