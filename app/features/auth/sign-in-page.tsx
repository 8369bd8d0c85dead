import { Trans, useLingui } from '@lingui/react/macro'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import type { User } from 'firebase/auth'
import { useEffect, useRef, useState } from 'react'
import { LocalMailbox } from '~/components/form/local-mailbox'
import { Card, CardContent, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import type { DashboardTab } from '~/lib/dashboard-tabs'
import { localeParam, localizePath } from '~/lib/locale'
import { useLocale } from '~/lib/use-locale'
import { cn } from '~/lib/utils'
import { applyPreferences } from '~/lib/auth/apply-preferences'
import { useAuth } from '~/lib/auth/auth-context'
import { useIdentityMessage } from '~/lib/auth/identity-message'
import { keepInvitation, pendingInvitation } from '~/lib/pending-invitation'
import { EmailLinkForm, PasswordSignInForm, ProviderButtons, ResetPasswordForm, SignUpForm } from './sign-in-forms'

const route = getRouteApi('/{-$locale}/sign-in/')
type Mode = 'sign-in' | 'sign-up' | 'link' | 'reset'

/**
 * Where a signed-in visitor goes: back to the tab that sent them here, in their stored language; with an
 * invitation kept and no tab named, to the Members tab, which offers it (a new account goes to the Account tab,
 * which offers it too, beside the e-mail check accepting needs).
 */
export function useAfterSignIn() {
  const navigate = useNavigate()
  const locale = useLocale()
  const { completeSignIn } = useAuth()
  return async (user: User, options: { tab?: DashboardTab } = {}) => {
    const profile = await completeSignIn(user)
    const language = applyPreferences(profile) ?? locale
    await navigate({
      to: '/{-$locale}/api-dashboard/{-$tab}',
      params: { locale: localeParam(language), tab: options.tab ?? (pendingInvitation() ? 'members' : undefined) },
    })
  }
}

export function SignInPage() {
  const { t } = useLingui()
  const { status, config, endedBy } = useAuth()
  const { tab, mode: initialMode, invitation } = route.useSearch()
  const [mode, setMode] = useState<Mode>(initialMode ?? 'sign-in')
  const [notice, setNotice] = useState<string>()
  const [signInEmail, setSignInEmail] = useState<string>()
  const afterSignIn = useAfterSignIn()
  const message = useIdentityMessage()
  const navigate = useNavigate()
  const locale = useLocale()

  useEffect(() => keepInvitation(invitation), [invitation])

  // Someone already signed in who opens this page goes on to the dashboard; a sign-in made here navigates itself.
  const previous = useRef(status)
  useEffect(() => {
    if (status === 'signed-in' && previous.current === 'loading')
      void navigate({
        to: '/{-$locale}/api-dashboard/{-$tab}',
        params: { locale: localeParam(locale), tab: undefined },
      })
    previous.current = status
  }, [status, navigate, locale])

  const modes: Array<[Mode, string]> = [
    ['sign-in', t`Sign in`],
    ['sign-up', t`Create account`],
    ['link', t`E-mail link`],
    ['reset', t`Reset password`],
  ]

  return (
    <div className="mx-auto flex w-full max-w-md flex-col gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">
        <Trans>Sign in to the dashboard</Trans>
      </h1>
      <p className="text-sm text-muted-foreground">
        <Trans>
          With an account your keys follow you to every device and a lost browser loses nothing. Trial keys still work
          without one.
        </Trans>
      </p>
      {endedBy && (
        <p role="alert" className="text-sm text-destructive">
          {message({ code: `auth/${endedBy}` })}
        </p>
      )}
      {status === 'loading' && <Skeleton className="h-80 w-full rounded-xl" />}
      {status === 'unavailable' && (
        <p role="status" className="rounded-md border p-4 text-sm">
          <Trans>Sign-in is not configured on this server. Trial keys work without an account.</Trans>
        </p>
      )}
      {status === 'signed-out' && config && (
        <Card>
          <CardHeader>
            <div role="group" aria-label={t`How to sign in`} className="flex flex-wrap gap-1">
              {modes.map(([key, label]) => (
                <button
                  key={key}
                  type="button"
                  aria-pressed={mode === key}
                  data-testid={`auth-mode-${key}`}
                  onClick={() => {
                    setMode(key)
                    setNotice(undefined)
                  }}
                  className={cn(
                    'rounded-md px-3 py-1.5 text-sm hover:bg-accent',
                    mode === key && 'bg-accent font-medium',
                  )}
                >
                  {label}
                </button>
              ))}
            </div>
            <CardTitle className="sr-only">{modes.find(([key]) => key === mode)![1]}</CardTitle>
            {notice && (
              <p role="status" className="text-sm">
                {notice}
              </p>
            )}
          </CardHeader>
          <CardContent className="flex flex-col gap-6">
            {mode === 'sign-in' && (
              <PasswordSignInForm
                config={config}
                initialEmail={signInEmail}
                onSignedIn={(user) => afterSignIn(user, { tab: signInEmail ? 'account' : tab })}
              />
            )}
            {mode === 'sign-up' && (
              <SignUpForm
                config={config}
                onContinue={(email) => {
                  setSignInEmail(email)
                  setMode('sign-in')
                }}
              />
            )}
            {mode === 'link' && (
              <EmailLinkForm
                config={config}
                actionUrl={new URL(localizePath('/sign-in/action', locale), window.location.origin).toString()}
              />
            )}
            {mode === 'reset' && (
              <ResetPasswordForm
                config={config}
                onDone={(email) => {
                  setMode('sign-in')
                  setNotice(t`The password of ${email} was changed. Sign in with the new one.`)
                }}
              />
            )}
            {(mode === 'sign-in' || mode === 'sign-up') && (
              <ProviderButtons config={config} onSignedIn={(user) => afterSignIn(user, { tab })} />
            )}
          </CardContent>
        </Card>
      )}
      {status === 'signed-out' && <LocalMailbox />}
    </div>
  )
}
