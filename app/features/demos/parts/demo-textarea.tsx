import type * as React from 'react'
import { fieldClass } from '~/components/ui/input'
import { cn } from '~/lib/utils'

/**
 * A text area in the inputs' style. Not `~/components/ui/textarea`: a ui module that a demo chunk and
 * another page both import joins the shared shell every page loads first (vite.config.ts, `site` group).
 */
export function DemoTextarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return <textarea className={cn(fieldClass, 'resize-y', className)} {...props} />
}
