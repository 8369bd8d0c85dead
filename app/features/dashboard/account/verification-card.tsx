import { Trans, useLingui } from '@lingui/react/macro'
import { useState, type FormEvent } from 'react'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { AuthField } from '~/components/form/auth-field'
import { LocalMailbox } from '~/components/form/local-mailbox'
import { accountApi } from '~/lib/auth/account-api'
import { useAuth } from '~/lib/auth/auth-context'
import { firebaseAuth } from '~/lib/auth/firebase-client'
import { FormError } from '~/components/form/form-error'
import { useIdentityAction } from '~/lib/auth/use-identity-action'
import { notify } from '../notify'

/** E-mail verification by one-time code: the e-mail brings a code (and a link); either proves the address. */
export function VerificationCard() {
  const { t } = useLingui()
  const { identity, config, setProfile } = useAuth()
  const { busy, error, run } = useIdentityAction()
  const [code, setCode] = useState('')
  const [verified, setVerified] = useState(identity?.emailVerified ?? false)
  if (!identity?.email || !config) return null

  const resend = () =>
    run(async () => {
      const { sdk } = await firebaseAuth(config)
      await sdk.sendEmailVerification(identity)
      notify.success(t`A new code is on its way to ${identity.email}.`)
    })
  const verify = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      await sdk.applyActionCode(auth, code.trim())
      await identity.reload()
      // The next token carries email_verified; ask for it now rather than in an hour, and show it to the server,
      // which otherwise learns it at the next sign-in (accepting an invitation needs it now).
      setProfile(await accountApi.userInfo(await identity.getIdToken(true)))
      setVerified(identity.emailVerified)
      notify.success(t`Your e-mail address is verified.`)
    })
  }

  return (
    <Card aria-labelledby="verification-title" data-testid="verification">
      <CardHeader>
        <CardTitle id="verification-title" className="flex flex-wrap items-center gap-2">
          <Trans>E-mail address</Trans>
          {verified ? (
            <Badge variant="success" data-testid="email-verified">
              {t`Verified`}
            </Badge>
          ) : (
            <Badge variant="outline">{t`Not verified`}</Badge>
          )}
        </CardTitle>
        <CardDescription className="break-all">{identity.email}</CardDescription>
      </CardHeader>
      {!verified && (
        <CardContent>
          <form onSubmit={verify} className="flex flex-col gap-4">
            <p className="text-sm text-muted-foreground">
              <Trans>We sent a verification code to this address. Enter it here, or open the link in the e-mail.</Trans>
            </p>
            <AuthField
              label={t`Verification code`}
              autoComplete="one-time-code"
              required
              value={code}
              onChange={(e) => setCode(e.target.value)}
              data-testid="verification-code"
            />
            <FormError message={error} />
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy} data-testid="verify-email">
                <Trans>Verify</Trans>
              </Button>
              <Button type="button" variant="outline" disabled={busy} onClick={() => void resend()}>
                <Trans>Send a new code</Trans>
              </Button>
            </div>
          </form>
          <div className="mt-4">
            <LocalMailbox email={identity.email} />
          </div>
        </CardContent>
      )}
    </Card>
  )
}
