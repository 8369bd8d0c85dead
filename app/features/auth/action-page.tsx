import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi } from '@tanstack/react-router'
import { useEffect, useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { LocalizedLink } from '~/components/site/localized-link'
import { Skeleton } from '~/components/ui/skeleton'
import { accountApi } from '~/lib/auth/account-api'
import { EmailField, NewPasswordField } from '~/components/form/auth-field'
import { useAuth } from '~/lib/auth/auth-context'
import { firebaseAuth } from '~/lib/auth/firebase-client'
import { FormError } from '~/components/form/form-error'
import { passwordAllowed } from '~/components/form/password-rules'
import { EMAIL_FOR_LINK } from './sign-in-forms'
import { useAfterSignIn } from './sign-in-page'
import { useIdentityAction } from '~/lib/auth/use-identity-action'

const route = getRouteApi('/{-$locale}/sign-in/action')

/**
 * Where the identity service's e-mail links land (set it as the action URL of the project's e-mail templates):
 * verify an address, finish an e-mail-link sign-in, or set a new password.
 */
export function ActionPage() {
  const { mode, oobCode } = route.useSearch()
  const { config, status } = useAuth()
  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-6">
      {!config || status === 'loading' ? (
        <Skeleton className="h-48 w-full rounded-xl" />
      ) : mode === 'verifyEmail' && oobCode ? (
        <VerifyEmail code={oobCode} />
      ) : mode === 'resetPassword' && oobCode ? (
        <NewPassword code={oobCode} />
      ) : mode === 'signIn' ? (
        <LinkSignIn />
      ) : (
        <p role="alert" className="text-sm text-destructive">
          <Trans>This link is not complete. Open it again from the e-mail.</Trans>
        </p>
      )}
    </div>
  )
}

function VerifyEmail({ code }: { code: string }) {
  const { config, identity, setProfile } = useAuth()
  const { error, run } = useIdentityAction()
  const [done, setDone] = useState(false)
  const started = useRef(false)
  useEffect(() => {
    if (started.current || !config) return
    started.current = true
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      await sdk.applyActionCode(auth, code)
      await identity?.reload()
      // Signed in here: the server learns of the verified address now, as the Account tab's code form tells it
      // (an invitation kept through sign-up can then be accepted without signing in again).
      // Not a failure of the verification if this fails: the next sign-in tells the server instead.
      if (identity)
        await identity
          .getIdToken(true)
          .then((token) => accountApi.userInfo(token))
          .then(setProfile, () => undefined)
      setDone(true)
    })
  }, [config, code, identity, run, setProfile])
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Verify your e-mail</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        {done && (
          <p role="status">
            <Trans>Your e-mail address is verified.</Trans>
          </p>
        )}
        <FormError message={error} />
        <LocalizedLink
          to="/{-$locale}/api-dashboard/{-$tab}"
          params={{ tab: 'account' }}
          className="text-primary underline"
        >
          <Trans>Go to your account</Trans>
        </LocalizedLink>
      </CardContent>
    </Card>
  )
}

function NewPassword({ code }: { code: string }) {
  const { t } = useLingui()
  const { config } = useAuth()
  const { busy, error, run } = useIdentityAction()
  const [password, setPassword] = useState('')
  const [done, setDone] = useState<string>()
  const policy = config!.passwordPolicy
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => setDone((await accountApi.resetPassword(code, password)).email))
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Set a new password</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent>
        {done ? (
          <p role="status">
            <Trans>The password of {done} was changed.</Trans>{' '}
            <LocalizedLink to="/{-$locale}/sign-in" className="text-primary underline">
              <Trans>Sign in</Trans>
            </LocalizedLink>
          </p>
        ) : (
          <form onSubmit={submit} className="flex flex-col gap-4">
            <NewPasswordField label={t`New password`} value={password} onChange={setPassword} policy={policy} />
            <FormError message={error} />
            <Button type="submit" disabled={busy || !passwordAllowed(password, policy)}>
              <Trans>Set new password</Trans>
            </Button>
          </form>
        )}
      </CardContent>
    </Card>
  )
}

/** The e-mail comes from this browser's storage; opened elsewhere, the visitor types it again (as Firebase advises). */
function LinkSignIn() {
  const { config } = useAuth()
  const afterSignIn = useAfterSignIn()
  const { busy, error, run } = useIdentityAction()
  const [email, setEmail] = useState(() => localStorage.getItem(EMAIL_FOR_LINK) ?? '')
  const submit = (event?: FormEvent) => {
    event?.preventDefault()
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config!)
      if (!sdk.isSignInWithEmailLink(auth, window.location.href)) throw { code: 'auth/invalid-action-code' }
      const { user } = await sdk.signInWithEmailLink(auth, email.trim(), window.location.href)
      localStorage.removeItem(EMAIL_FOR_LINK)
      await afterSignIn(user)
    })
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <Trans>Finish signing in</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-4">
          <EmailField value={email} onChange={setEmail} />
          <FormError message={error} />
          <Button type="submit" disabled={busy}>
            <Trans>Sign in</Trans>
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
