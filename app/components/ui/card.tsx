import type * as React from 'react'
import { cn } from '~/lib/utils'

export function Card({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="card"
      className={cn('flex flex-col rounded-xl border bg-card text-card-foreground shadow-xs', className)}
      {...props}
    />
  )
}

/** `row` lays the title and its actions side by side, wrapping on narrow screens. */
export function CardHeader({ className, row = false, ...props }: React.ComponentProps<'div'> & { row?: boolean }) {
  return (
    <div
      data-slot="card-header"
      className={cn(
        'flex px-5 pt-5',
        row ? 'flex-row flex-wrap items-center justify-between gap-2' : 'flex-col gap-1.5',
        className,
      )}
      {...props}
    />
  )
}

export function CardContent({ className, ...props }: React.ComponentProps<'div'>) {
  return <div data-slot="card-content" className={cn('p-5', className)} {...props} />
}

export function CardFooter({ className, ...props }: React.ComponentProps<'div'>) {
  return (
    <div
      data-slot="card-footer"
      className={cn('mt-auto flex flex-wrap items-center gap-2 p-5 pt-0', className)}
      {...props}
    />
  )
}

export function CardTitle({ className, ...props }: React.ComponentProps<'h2'>) {
  return <h2 data-slot="card-title" className={cn('text-lg leading-snug font-semibold', className)} {...props} />
}

export function CardDescription({ className, ...props }: React.ComponentProps<'p'>) {
  return <p data-slot="card-description" className={cn('text-sm text-muted-foreground', className)} {...props} />
}
