import { Trans } from '@lingui/react/macro'
import { KeyRoundIcon } from 'lucide-react'
import type * as React from 'react'
import { LocalizedLink } from '~/components/site/localized-link'
import { buttonVariants } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { useDashboardKey } from './dashboard-key'

export function NeedKeyPanel() {
  return (
    <Card data-testid="need-key">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <KeyRoundIcon aria-hidden="true" className="size-5 text-muted-foreground" />
          <Trans>No API key yet</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Get a free trial key or paste the key you already have to see this page.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" className={buttonVariants({ className: 'w-fit' })}>
          <Trans>Get or add a key</Trans>
        </LocalizedLink>
      </CardContent>
    </Card>
  )
}

/**
 * Renders `children(apiKey)` once the browser knows the key. The server and the first client render show
 * `skeleton` instead (same size, so nothing shifts); no key at all shows the way to get one.
 */
export function WithApiKey({
  skeleton,
  children,
}: {
  skeleton: React.ReactNode
  children: (apiKey: string) => React.ReactNode
}) {
  const { apiKey, ready } = useDashboardKey()
  if (!ready) return skeleton
  if (!apiKey) return <NeedKeyPanel />
  return children(apiKey)
}

export function CardSkeleton({ className }: { className?: string }) {
  return <Skeleton className={className ?? 'h-48 w-full rounded-xl'} />
}
