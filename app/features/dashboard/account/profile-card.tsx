import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useNavigate } from '@tanstack/react-router'
import { useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { localeNames } from '~/components/site/locale-switcher'
import type { UserAnswer } from '~/contracts/account'
import { accountApi } from '~/lib/auth/account-api'
import { applyPreferences } from '~/lib/auth/apply-preferences'
import { AuthField } from '~/components/form/auth-field'
import { useAuth } from '~/lib/auth/auth-context'
import { FormError } from '~/components/form/form-error'
import { Select } from '~/components/form/select-field'
import { ApiError, detailText } from '~/lib/api-error'
import { interfaceLocales, localeParam } from '~/lib/locale'
import { useUserStore } from '~/lib/settings'
import { useLocale } from '~/lib/use-locale'
import { notify } from '../notify'

/** Profile and preferences kept on the account, so every device where the user signs in gets them. */
export function ProfileCard({ profile }: { profile: UserAnswer }) {
  const { t } = useLingui()
  const { setProfile } = useAuth()
  const navigate = useNavigate()
  const locale = useLocale()
  const { settings } = useUserStore()
  const stored = profile.preferences
  const [displayName, setDisplayName] = useState(profile.displayName ?? '')
  const [photoURL, setPhotoURL] = useState(profile.photoURL ?? '')
  const [notificationEmail, setNotificationEmail] = useState(profile.notificationEmail ?? '')
  const [language, setLanguage] = useState(typeof stored.language === 'string' ? stored.language : locale)
  const [theme, setTheme] = useState(String(stored.darkMode ?? settings.darkMode))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const saved = await accountApi.updateProfile({
        displayName,
        photoURL,
        notificationEmail,
        preferences: { language, darkMode: theme === 'auto' ? 'auto' : theme === 'true' },
      })
      setProfile(saved)
      const next = applyPreferences(saved)
      notify.success(t`Profile saved.`)
      if (next && next !== locale)
        await navigate({
          to: '/{-$locale}/api-dashboard/{-$tab}',
          params: { locale: localeParam(next), tab: 'account' },
        })
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : (detailText(failure) ?? String(failure)))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card aria-labelledby="profile-title">
      <CardHeader>
        <CardTitle id="profile-title">
          <Trans>Profile and preferences</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Kept with your account: every device where you sign in uses them.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-4" data-testid="profile-form">
          <AuthField
            label={t`Display name`}
            value={displayName}
            maxLength={100}
            onChange={(e) => setDisplayName(e.target.value)}
            autoComplete="name"
          />
          <AuthField
            label={t`Photo address (https://…)`}
            type="url"
            value={photoURL}
            onChange={(e) => setPhotoURL(e.target.value)}
            inputMode="url"
          />
          <AuthField
            label={t`E-mail for balance alerts`}
            type="email"
            value={notificationEmail}
            placeholder={profile.email ?? ''}
            onChange={(e) => setNotificationEmail(e.target.value)}
            hint={(id) => (
              <p id={id} className="text-xs text-muted-foreground">
                <Trans>Empty: alerts go to your account's e-mail.</Trans>
              </p>
            )}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="profile-language" label={<Trans>Language</Trans>}>
              {(field) => (
                <Select {...field} value={language} onChange={(e) => setLanguage(e.target.value)}>
                  {interfaceLocales.map((l) => (
                    <option key={l} value={l} lang={l}>
                      {localeNames[l]}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField id="profile-theme" label={<Trans>Theme</Trans>}>
              {(field) => (
                <Select {...field} value={theme} onChange={(e) => setTheme(e.target.value)}>
                  <option value="auto">{t`As the system`}</option>
                  <option value="false">{t`Light`}</option>
                  <option value="true">{t`Dark`}</option>
                </Select>
              )}
            </FormField>
          </div>
          <FormError message={error} />
          <Button type="submit" className="w-fit" disabled={busy} aria-busy={busy} data-testid="save-profile">
            <Trans>Save profile</Trans>
          </Button>
        </form>
      </CardContent>
    </Card>
  )
}
