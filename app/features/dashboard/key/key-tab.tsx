import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { forgetKeyData } from '../queries'
import { setApiKey } from '~/lib/use-api-key'
import { useDashboardKey } from '../dashboard-key'
import { AccountKeysCard } from '../account/account-keys-card'
import { BalanceCard } from './balance-card'
import { EmptyKeyNotice } from './empty-key-notice'
import { KeyCard } from './key-card'
import { PasteKeyForm } from './paste-key-form'
import { TrialKeyCard } from './trial-key-card'

export function KeyTab() {
  const { apiKey } = useDashboardKey()
  const queryClient = useQueryClient()
  const [freshKey, setFreshKey] = useState<string>()

  const adopt = (next: string, fresh: boolean) => {
    if (apiKey && apiKey !== next) forgetKeyData(queryClient, apiKey)
    setApiKey(next)
    setFreshKey(fresh ? next : undefined)
  }

  // Before the browser's store is read, a page the server rendered with the `apiKey` cookie already has its key
  // (useDashboardKey); one without it is a visitor with no key, since the cookie follows the store. So the trial
  // card is drawn with the page, not after the app has started (it was the largest paint, 3.5 s late on a phone).
  // A stored key without its cookie (rare: cookies cleared) replaces the card once the store is read.
  // One tree for both states, so the account's card (and a new key it shows once) survives a key taken into use.
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      {apiKey && <EmptyKeyNotice apiKey={apiKey} />}
      {apiKey ? <BalanceCard apiKey={apiKey} /> : <TrialKeyCard onKey={(key) => adopt(key, true)} />}
      {apiKey && <KeyCard key={apiKey} apiKey={apiKey} fresh={freshKey === apiKey} />}
      <PasteKeyForm hasKey={!!apiKey} onKey={(key) => adopt(key, false)} />
      <AccountKeysCard />
    </div>
  )
}
