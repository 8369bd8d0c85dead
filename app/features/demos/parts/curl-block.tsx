import { Trans, useLingui } from '@lingui/react/macro'
import { Check, Copy, Eye, EyeOff } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { maskKey } from '~/features/dashboard/format'
import { demoCurl } from '../lib/curl'

/** Stands for the key when the visitor has none yet; quoted as is, so it cannot expand into anything. */
const KEY_PLACEHOLDER = 'YOUR_API_KEY'

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
}: {
  apiBaseUrl: string
  path: string
  body: unknown
  apiKey: string | null
  sendsKey: boolean
}) {
  const { t } = useLingui()
  const [revealed, setRevealed] = useState(false)
  const [copied, setCopied] = useState<'yes' | 'failed'>()
  const key = (shown: boolean) => (!sendsKey ? undefined : !apiKey ? KEY_PLACEHOLDER : shown ? apiKey : maskKey(apiKey))
  const command = demoCurl({ apiBaseUrl, path, body, key: key(revealed) })

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(demoCurl({ apiBaseUrl, path, body, key: key(true) }))
      setCopied('yes')
    } catch {
      setCopied('failed')
    }
    setTimeout(() => setCopied(undefined), 2000)
  }

  return (
    <div className="min-w-0 overflow-hidden rounded-xl border bg-card shadow-xs">
      <div className="flex flex-wrap items-center justify-between gap-2 border-b px-4 py-2">
        <h3 className="text-sm font-semibold">
          <Trans>The same request with curl</Trans>
        </h3>
        <div className="flex flex-wrap gap-1">
          {sendsKey && apiKey && (
            <Button
              type="button"
              variant="ghost"
              size="sm"
              aria-pressed={revealed}
              onClick={() => setRevealed((r) => !r)}
            >
              {revealed ? <EyeOff aria-hidden /> : <Eye aria-hidden />}
              {revealed ? t`Hide key` : t`Show key`}
            </Button>
          )}
          <Button type="button" variant="ghost" size="sm" onClick={copy} data-testid="demo-curl-copy">
            {copied === 'yes' ? <Check aria-hidden /> : <Copy aria-hidden />}
            <span aria-live="polite">
              {copied === 'yes' ? t`Copied` : copied === 'failed' ? t`Copy failed` : t`Copy`}
            </span>
          </Button>
        </div>
      </div>
      <pre data-testid="demo-curl" tabIndex={0} className="overflow-x-auto p-4 text-[13px] leading-relaxed">
        <code translate="no">{command}</code>
      </pre>
      {sendsKey && apiKey && (
        <p className="border-t px-4 py-2.5 text-xs text-muted-foreground">
          <Trans>Copy puts your full key into the command. Keep it secret.</Trans>
        </p>
      )}
    </div>
  )
}
