import { Trans } from '@lingui/react/macro'
import { cn } from '~/lib/utils'
import { demoLayout } from './demo-layout'

/** A grey block; not `~/components/ui/skeleton`, which this page's chunk would otherwise pull into the shared shell. */
function Skeleton({ className }: { className: string }) {
  return <div aria-hidden="true" className={cn('animate-pulse bg-muted', className)} />
}

/**
 * The demo's place before its code arrives (and what the server renders): the boxes of ./demo-layout.ts,
 * whose minimum heights the demo's first screen fits, so the page does not move when it loads.
 */
export function DemoSkeleton() {
  return (
    <div data-testid="demo-skeleton" className="flex flex-col gap-6">
      <div className={demoLayout.grid}>
        <div className={cn(demoLayout.panel, demoLayout.form)}>
          <div className="flex flex-wrap gap-2">
            <Skeleton className="h-8 w-28 rounded-full" />
            <Skeleton className="h-8 w-24 rounded-full" />
            <Skeleton className="h-8 w-32 rounded-full" />
          </div>
          <Skeleton className="h-32 w-full rounded-md" />
          <Skeleton className="h-10 w-full rounded-md" />
          <Skeleton className="mt-auto h-9 w-28 rounded-md" />
        </div>
        <div className={cn(demoLayout.panel, demoLayout.result)}>
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
      <div className={demoLayout.curlBox}>
        <div className={demoLayout.curlHeader}>
          <Skeleton className="h-8 w-48 rounded-md" />
          <Skeleton className="h-8 w-40 rounded-md" />
        </div>
        <div className={demoLayout.curlPre} />
        <div className={demoLayout.curlNote}>
          <Skeleton className="h-4 w-2/3 rounded" />
        </div>
      </div>
    </div>
  )
}
