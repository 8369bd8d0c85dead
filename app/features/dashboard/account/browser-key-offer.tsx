import { Trans } from '@lingui/react/macro'
import { KeyRoundIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { CaptchaWidget } from '~/components/captcha-widget'
import { maskKey, useFormat } from '~/lib/format'
import { useClaimBrowserKey, useUnclaimedBrowserKey, type UnclaimedKey } from './use-browser-key'

/**
 * Offered on every tab once a user signs up or in with a key in this browser that the account lacks: signing
 * out would take that key (and its tokens) off this browser, so adding it is one click and the claim's captcha.
 */
export function BrowserKeyOffer() {
  const unclaimed = useUnclaimedBrowserKey()
  const [dismissed, setDismissed] = useState<string>()
  if (!unclaimed || dismissed === unclaimed.keyId) return null
  return <Offer key={unclaimed.keyId} unclaimed={unclaimed} onDismiss={() => setDismissed(unclaimed.keyId)} />
}

function Offer({ unclaimed, onDismiss }: { unclaimed: UnclaimedKey; onDismiss: () => void }) {
  const format = useFormat()
  const { captcha, busy, claim } = useClaimBrowserKey(unclaimed)
  const masked = unclaimed.name ? `${unclaimed.name} · ${maskKey(unclaimed.apiKey)}` : maskKey(unclaimed.apiKey)
  const tokens = format.tokens(unclaimed.balance)
  return (
    <section
      aria-labelledby="browser-key-offer-title"
      className="flex flex-col gap-3 rounded-lg border border-primary/40 bg-primary/5 px-4 py-3"
      data-testid="browser-key-offer"
    >
      <h2 id="browser-key-offer-title" className="flex items-center gap-2 font-medium">
        <KeyRoundIcon aria-hidden="true" className="size-4 shrink-0" />
        <Trans>Add this browser's key to your account?</Trans>
      </h2>
      <p className="text-sm">
        <Trans>
          This browser holds the key{' '}
          <code translate="no" className="font-mono break-all">
            {masked}
          </code>{' '}
          with {tokens} tokens, and your account does not. Added, it stays yours on every device; otherwise signing out
          removes it from this browser.
        </Trans>
      </p>
      <CaptchaWidget captcha={captcha} />
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => void claim()}
          disabled={busy || captcha.state === 'unsupported'}
          aria-busy={busy}
          data-testid="claim-browser-key"
        >
          <Trans>Add it to my account</Trans>
        </Button>
        <Button variant="ghost" onClick={onDismiss} data-testid="dismiss-browser-key-offer">
          <Trans>Not now</Trans>
        </Button>
      </div>
    </section>
  )
}
