import { Trans } from '@lingui/react/macro'
import { useSyncExternalStore } from 'react'
import { Button } from '~/components/ui/button'
import { useOpenTab } from '../use-open-tab'

/**
 * Keys handed out empty because the network had too many trial keys (spec §4's fallback), for this visit: the
 * reason stays on the page beside the 0-token balance instead of leaving with its toast.
 */
const emptyKeys = new Set<string>()
const listeners = new Set<() => void>()

export function markEmptyKey(apiKey: string) {
  emptyKeys.add(apiKey)
  listeners.forEach((listener) => listener())
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export function EmptyKeyNotice({ apiKey }: { apiKey: string }) {
  const openTab = useOpenTab()
  // Only the browser marks keys, so the server's snapshot is the same (empty) set.
  const has = () => emptyKeys.has(apiKey)
  const empty = useSyncExternalStore(subscribe, has, has)
  if (!empty) return null
  return (
    <div
      role="status"
      className="flex flex-col gap-3 rounded-lg border border-destructive/50 p-4 text-sm lg:col-span-2"
      data-testid="empty-key-notice"
    >
      <p>
        <Trans>
          Too many trial keys were requested from your network, so this key starts with 0 tokens. Buy a pack or transfer
          a balance to use it.
        </Trans>
      </p>
      <Button variant="outline" size="sm" className="w-fit" onClick={() => openTab('billing')}>
        <Trans>Buy tokens</Trans>
      </Button>
    </div>
  )
}
