import { Trans, useLingui } from '@lingui/react/macro'
import { Check, Copy, Eye, EyeOff } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { maskKey } from '~/lib/format'
import { cn } from '~/lib/utils'
import { demoLayout } from '../demo-layout'
import { demoCurl, KEY_VARIABLE } from '../lib/curl'

/**
 * The request the demo sends, as a `curl` against the public API base URL: the same JSON body and, when
 * the demo sends one, the visitor's key, masked on screen until revealed. Copying always copies it whole.
 */
export function CurlBlock({
  apiBaseUrl,
  path,
  body,
  apiKey,
  sendsKey,
  headers,
  stream,
}: {
  apiBaseUrl: string
  path: string
  body: unknown
  apiKey: string | null
  sendsKey: boolean
  headers?: Record<string, string>
  stream?: boolean
}) {
  const { t } = useLingui()
  const [revealed, setRevealed] = useState(false)
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const key = (shown: boolean) => (!sendsKey ? undefined : !apiKey ? KEY_VARIABLE : shown ? apiKey : maskKey(apiKey))
  const command = demoCurl({ apiBaseUrl, path, body, key: key(revealed), headers, stream })

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(demoCurl({ apiBaseUrl, path, body, key: key(true), headers, stream }))
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
    setTimeout(() => setCopied(undefined), 2000)
  }

  const hasKey = sendsKey && Boolean(apiKey)
  return (
    <div className={demoLayout.curlBox} data-testid="demo-curl-box">
      <div className={demoLayout.curlHeader}>
        <h3 className="py-1.5 text-sm font-semibold">
          <Trans>The same request with curl</Trans>
        </h3>
        {/* Both labels in German or Russian are wider than a 320 px phone, and the box clips what sticks out:
            on phones the key button shows its icon alone (its label stays for screen readers), and the row wraps. */}
        <div className="flex flex-wrap gap-1">
          {/* Kept in place while hidden, so the block is as tall with a key as without. */}
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className={cn(!hasKey && 'invisible')}
            disabled={!hasKey}
            aria-pressed={revealed}
            onClick={() => setRevealed((r) => !r)}
          >
            {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
            <span className="max-sm:sr-only">{revealed ? t`Hide key` : t`Show key`}</span>
          </Button>
          <Button type="button" variant="ghost" size="sm" onClick={copy} data-testid="demo-curl-copy">
            {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
            <span aria-live="polite">
              {copied === 'yes' ? t`Copied` : copied === 'failed' ? t`Copy failed` : t`Copy`}
            </span>
          </Button>
        </div>
      </div>
      <pre data-testid="demo-curl" tabIndex={0} className={demoLayout.curlPre}>
        <code translate="no">{command}</code>
      </pre>
      <p className={demoLayout.curlNote}>
        {hasKey ? (
          <Trans>Copy puts your full key into the command. Keep it secret.</Trans>
        ) : sendsKey ? (
          <Trans>
            Set <code>API_KEY</code> to your API key first: <code>export API_KEY=…</code>
          </Trans>
        ) : (
          <Trans>No key is sent: this API works without one.</Trans>
        )}
      </p>
    </div>
  )
}
