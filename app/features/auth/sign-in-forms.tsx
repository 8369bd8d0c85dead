import { Trans, useLingui } from '@lingui/react/macro'
import type { User } from 'firebase/auth'
import { useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import type { AuthConfig } from '~/contracts/account'
import { accountApi } from '~/lib/auth/account-api'
import { AuthField, EmailField, NewPasswordField } from '~/components/form/auth-field'
import { firebaseAuth } from '~/lib/auth/firebase-client'
import { FormError } from '~/components/form/form-error'
import { passwordAllowed } from '~/components/form/password-rules'
import { useIdentityAction } from '~/lib/auth/use-identity-action'

export const EMAIL_FOR_LINK = 'emailForSignIn'

type SignedIn = (user: User, options?: { fresh?: boolean }) => Promise<void>

export function PasswordSignInForm({
  config,
  onSignedIn,
  initialEmail = '',
}: {
  config: AuthConfig
  onSignedIn: SignedIn
  initialEmail?: string
}) {
  const { t } = useLingui()
  const { busy, error, run } = useIdentityAction()
  const [email, setEmail] = useState(initialEmail)
  const [password, setPassword] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      const { user } = await sdk.signInWithEmailAndPassword(auth, email.trim(), password)
      await onSignedIn(user)
    })
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="sign-in-form">
      <EmailField value={email} onChange={setEmail} />
      <AuthField
        label={t`Password`}
        type="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => setPassword(e.target.value)}
      />
      <FormError message={error} />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        {busy ? <Trans>Signing in…</Trans> : <Trans>Sign in</Trans>}
      </Button>
    </form>
  )
}

/**
 * Sign-up goes through our server, which checks the password policy before the identity service sees it. Its
 * answer is the same whether or not the address has an account (the e-mail says which), so the form shows the
 * same "check your e-mail" state either way and the visitor signs in next.
 */
export function SignUpForm({ config, onContinue }: { config: AuthConfig; onContinue: (email: string) => void }) {
  const { t } = useLingui()
  const { busy, error, run } = useIdentityAction()
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [sentTo, setSentTo] = useState<string>()
  const policy = config.passwordPolicy
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!passwordAllowed(password, policy)) return
    void run(async () => {
      await accountApi.signUp(email.trim(), password)
      setSentTo(email.trim())
    })
  }
  if (sentTo)
    return (
      <div className="flex flex-col gap-4" data-testid="sign-up-sent">
        <p role="status" className="text-sm">
          <Trans>
            Check your e-mail: we sent a message to {sentTo} about this sign-up. Follow it, then sign in with your
            e-mail and password.
          </Trans>
        </p>
        <Button type="button" onClick={() => onContinue(sentTo)} data-testid="sign-up-continue">
          <Trans>Continue to sign-in</Trans>
        </Button>
      </div>
    )
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="sign-up-form">
      <EmailField value={email} onChange={setEmail} />
      <NewPasswordField label={t`Password`} value={password} onChange={setPassword} policy={policy} />
      <FormError message={error} />
      <Button type="submit" disabled={busy || !passwordAllowed(password, policy)} aria-busy={busy}>
        {busy ? <Trans>Creating your account…</Trans> : <Trans>Create account</Trans>}
      </Button>
    </form>
  )
}

/** Password-less: a sign-in link by e-mail, opened on /sign-in/action. */
export function EmailLinkForm({ config, actionUrl }: { config: AuthConfig; actionUrl: string }) {
  const { busy, error, run } = useIdentityAction()
  const [email, setEmail] = useState('')
  const [sent, setSent] = useState(false)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      await sdk.sendSignInLinkToEmail(auth, email.trim(), { url: actionUrl, handleCodeInApp: true })
      localStorage.setItem(EMAIL_FOR_LINK, email.trim())
      setSent(true)
    })
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-4" data-testid="email-link-form">
      <EmailField value={email} onChange={setEmail} />
      {sent && (
        <p role="status" className="text-sm text-muted-foreground">
          <Trans>We sent a sign-in link to {email}. Open it in this browser to sign in.</Trans>
        </p>
      )}
      <FormError message={error} />
      <Button type="submit" disabled={busy} aria-busy={busy}>
        <Trans>Send sign-in link</Trans>
      </Button>
    </form>
  )
}

/** Reset by one-time code: the e-mail brings a code; the new password is checked against the policy on our server. */
export function ResetPasswordForm({ config, onDone }: { config: AuthConfig; onDone: (email: string) => void }) {
  const { t } = useLingui()
  const { busy, error, run } = useIdentityAction()
  const [email, setEmail] = useState('')
  const [code, setCode] = useState('')
  const [password, setPassword] = useState('')
  const [sent, setSent] = useState(false)
  const policy = config.passwordPolicy

  const send = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      await sdk.sendPasswordResetEmail(auth, email.trim())
      setSent(true)
    })
  }
  const reset = (event: FormEvent) => {
    event.preventDefault()
    if (!passwordAllowed(password, policy)) return
    void run(async () => {
      const { email: account } = await accountApi.resetPassword(code.trim(), password)
      onDone(account)
    })
  }

  if (!sent)
    return (
      <form onSubmit={send} className="flex flex-col gap-4" data-testid="reset-request-form">
        <EmailField value={email} onChange={setEmail} />
        <FormError message={error} />
        <Button type="submit" disabled={busy} aria-busy={busy}>
          <Trans>Send reset code</Trans>
        </Button>
      </form>
    )
  return (
    <form onSubmit={reset} className="flex flex-col gap-4" data-testid="reset-form">
      <p role="status" className="text-sm text-muted-foreground">
        <Trans>If {email} has an account, a reset code is on its way. Enter it below with your new password.</Trans>
      </p>
      <AuthField
        label={t`Code from the e-mail`}
        autoComplete="one-time-code"
        required
        value={code}
        onChange={(e) => setCode(e.target.value)}
      />
      <NewPasswordField label={t`New password`} value={password} onChange={setPassword} policy={policy} />
      <FormError message={error} />
      <Button type="submit" disabled={busy || !passwordAllowed(password, policy)} aria-busy={busy}>
        <Trans>Set new password</Trans>
      </Button>
    </form>
  )
}

/** Google and GitHub, each shown only when configured (AUTH_GOOGLE, AUTH_GITHUB). */
export function ProviderButtons({ config, onSignedIn }: { config: AuthConfig; onSignedIn: SignedIn }) {
  const { busy, error, run } = useIdentityAction()
  if (!config.providers.google && !config.providers.github) return null
  const signIn = (provider: 'google' | 'github') =>
    run(async () => {
      const { auth, sdk } = await firebaseAuth(config)
      const instance = provider === 'google' ? new sdk.GoogleAuthProvider() : new sdk.GithubAuthProvider()
      const { user } = await sdk.signInWithPopup(auth, instance)
      await onSignedIn(user)
    })
  return (
    <div className="flex flex-col gap-2">
      {config.providers.google && (
        <Button variant="outline" disabled={busy} onClick={() => void signIn('google')}>
          <Trans>Continue with Google</Trans>
        </Button>
      )}
      {config.providers.github && (
        <Button variant="outline" disabled={busy} onClick={() => void signIn('github')}>
          <Trans>Continue with GitHub</Trans>
        </Button>
      )}
      <FormError message={error} />
    </div>
  )
}
