import type * as React from 'react'
import { fieldClass } from '~/components/ui/input'
import { cn } from '~/lib/utils'

/** A native select styled like the inputs: the platform's own picker is the most usable one on phones. */
export function Select({ className, ...props }: React.ComponentProps<'select'>) {
  return <select className={cn(fieldClass, 'h-10 pr-8', className)} {...props} />
}
