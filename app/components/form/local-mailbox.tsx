import { Trans, useLingui } from '@lingui/react/macro'
import { Mail, RotateCw } from 'lucide-react'
import { useCallback, useEffect, useState } from 'react'
import { Button } from '~/components/ui/button'
import { useAuth } from '~/lib/auth/auth-context'
import { localMessages, type LocalMessage } from '~/lib/auth/local-mail'
import { localizePath } from '~/lib/locale'
import { useLocale } from '~/lib/use-locale'

/** How often the list is read again while it is open: a code sent a moment ago shows without a click. */
const REFRESH_MS = 4000

/**
 * Running locally on the Auth emulator, no e-mail leaves the machine: this lists the codes it would have sent
 * (for `email` only, when given), each with the link the e-mail would carry. Nothing without the emulator.
 */
export function LocalMailbox({ email }: { email?: string }) {
  const { t } = useLingui()
  const { config } = useAuth()
  const locale = useLocale()
  const [messages, setMessages] = useState<LocalMessage[]>()
  const [failed, setFailed] = useState(false)
  const read = useCallback(
    () =>
      localMessages(config).then(
        (found) => {
          setMessages(found)
          setFailed(false)
        },
        () => setFailed(true),
      ),
    [config],
  )
  useEffect(() => {
    if (!config?.emulatorUrl) return
    void read()
    const timer = setInterval(() => void read(), REFRESH_MS)
    return () => clearInterval(timer)
  }, [config, read])
  if (!config?.emulatorUrl) return null

  const shown = (messages ?? []).filter((message) => !email || message.email === email)
  const kinds: Record<LocalMessage['kind'], string> = {
    verify: t`Verification code`,
    reset: t`Password reset code`,
    'sign-in': t`Sign-in link`,
  }
  const action = localizePath('/sign-in/action', locale)
  return (
    <section
      aria-labelledby="local-mail-title"
      data-testid="local-mailbox"
      className="flex flex-col gap-3 rounded-xl border border-dashed p-4 text-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="local-mail-title" className="flex items-center gap-2 font-semibold">
          <Mail aria-hidden className="size-4" />
          <Trans>E-mail on this machine</Trans>
        </h2>
        <Button type="button" variant="ghost" size="sm" onClick={() => void read()}>
          <RotateCw aria-hidden />
          <Trans>Refresh</Trans>
        </Button>
      </div>
      <p className="text-muted-foreground">
        <Trans>
          This server signs in through the local Auth emulator, so no e-mail is sent. The codes it would have e-mailed
          are listed here, newest first; other mail is written to the outbox folder of the server’s data directory.
        </Trans>
      </p>
      {failed && (
        <p role="alert" className="text-destructive">
          <Trans>The Auth emulator did not answer. Is the server still running?</Trans>
        </p>
      )}
      {messages && shown.length === 0 && (
        <p className="text-muted-foreground">
          <Trans>No code sent yet.</Trans>
        </p>
      )}
      {shown.length > 0 && (
        <ul className="flex flex-col gap-3" aria-live="polite">
          {shown.map((message) => (
            <li key={message.code} data-testid="local-mail" className="flex min-w-0 flex-col gap-1">
              <span>
                <span className="font-medium">{kinds[message.kind]}</span>{' '}
                <span className="break-all text-muted-foreground">{message.email}</span>
              </span>
              {message.kind !== 'sign-in' && (
                <code translate="no" data-testid="local-mail-code" className="break-all font-mono text-xs select-all">
                  {message.code}
                </code>
              )}
              <a href={`${action}?${message.search}`} className="w-fit text-primary underline underline-offset-4">
                <Trans>Open the link from this e-mail</Trans>
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
