import type * as React from 'react'
import { cn } from '~/lib/utils'

type Props = Omit<React.ComponentProps<'div'>, 'children'> & {
  value: number
  max: number
  /** What a screen reader announces instead of the bare number, e.g. "1,234 of 10,000,000 tokens". */
  valueText?: string
}

/** A horizontal gauge (role="meter"); the fill is clamped so a balance above the scale still reads as full. */
export function Meter({ value, max, valueText, className, ...props }: Props) {
  const ratio = max > 0 ? Math.min(1, Math.max(0, value / max)) : 0
  return (
    <div
      data-slot="meter"
      role="meter"
      aria-valuemin={0}
      aria-valuemax={max}
      aria-valuenow={Math.min(value, max)}
      aria-valuetext={valueText}
      className={cn('relative h-2 w-full overflow-hidden rounded-full bg-muted', className)}
      {...props}
    >
      <div className="h-full rounded-full bg-primary transition-[width]" style={{ width: `${ratio * 100}%` }} />
    </div>
  )
}
