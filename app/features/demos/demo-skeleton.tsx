import { Trans } from '@lingui/react/macro'
import { cn } from '~/lib/utils'

/** A grey block; not `~/components/ui/skeleton`, which this page's chunk would otherwise pull into the shared shell. */
function Skeleton({ className }: { className: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse bg-muted', className)} />
}

const panel = 'flex flex-col gap-5 rounded-xl border bg-card p-5 shadow-xs lg:min-h-[34rem]'

/**
 * The demo's place before its code arrives (and what the server renders): the same boxes at the same
 * heights as the demo itself (see parts/demo-frame.tsx), so the page does not jump when it loads.
 */
export function DemoSkeleton() {
  return (
    <div data-testid="demo-skeleton" className="flex flex-col gap-6">
      <div className="grid gap-6 lg:grid-cols-2">
        <div className={panel}>
          <div className="flex flex-wrap gap-2">
            <Skeleton className="h-8 w-28 rounded-full" />
            <Skeleton className="h-8 w-24 rounded-full" />
            <Skeleton className="h-8 w-32 rounded-full" />
          </div>
          <Skeleton className="h-36 w-full rounded-md" />
          <Skeleton className="h-10 w-full rounded-md" />
          <Skeleton className="h-24 w-full rounded-lg" />
          <Skeleton className="mt-auto h-9 w-24 rounded-md" />
        </div>
        <div className={panel}>
          <p className="text-sm text-muted-foreground">
            <Trans>The live demo is loading…</Trans>
          </p>
          <noscript>
            <p className="text-sm">
              <Trans>The live demo needs JavaScript. The code samples below work without it.</Trans>
            </p>
          </noscript>
        </div>
      </div>
      <Skeleton className="h-56 w-full rounded-xl" />
    </div>
  )
}
