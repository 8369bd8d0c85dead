import { Trans, useLingui } from '@lingui/react/macro'
import { CopyIcon, EyeIcon, EyeOffIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { cn } from '~/lib/utils'
import { maskKey } from '~/lib/format'
import { ForgetKeyDialog } from './forget-key-dialog'
import { KeyName } from './key-name'
import { RevokeKeyDialog } from './revoke-key-dialog'
import { notify } from '~/features/dashboard/notify'

export function KeyCard({ apiKey, fresh }: { apiKey: string; fresh: boolean }) {
  const { t } = useLingui()
  const [revealed, setRevealed] = useState(fresh)

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(apiKey)
      notify.success(t`API key copied to the clipboard`)
    } catch {
      notify.error(t`Could not copy: your browser did not allow access to the clipboard`)
    }
  }

  return (
    <Card aria-labelledby="key-title">
      <CardHeader>
        <CardTitle id="key-title">
          <Trans>Your API key</Trans>
        </CardTitle>
        <CardDescription>
          {fresh ? (
            <Trans>
              Save this key somewhere safe now. It is stored only in this browser; anyone who has it can spend its
              tokens.
            </Trans>
          ) : (
            <Trans>Send it as a bearer token: Authorization: Bearer followed by the key.</Trans>
          )}
        </CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <KeyName apiKey={apiKey} />
        <div className="flex items-center gap-2">
          <code
            data-testid="api-key"
            translate="no"
            className={cn(
              'min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm',
              revealed ? 'break-all' : 'truncate',
            )}
          >
            {revealed ? apiKey : maskKey(apiKey)}
          </code>
          <Button
            variant="outline"
            size="icon"
            aria-pressed={revealed}
            onClick={() => setRevealed((r) => !r)}
            aria-label={revealed ? t`Hide key` : t`Show key`}
          >
            {revealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
          </Button>
          <Button variant="outline" size="icon" onClick={copy} aria-label={t`Copy key`} data-testid="copy-key">
            <CopyIcon aria-hidden="true" />
          </Button>
        </div>
      </CardContent>
      <CardFooter>
        <ForgetKeyDialog apiKey={apiKey} />
        <RevokeKeyDialog apiKey={apiKey} />
      </CardFooter>
    </Card>
  )
}
