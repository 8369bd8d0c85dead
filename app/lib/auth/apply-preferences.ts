import type { UserAnswer } from '~/contracts/account'
import { interfaceLocales, type Locale } from '~/lib/locale'
import { updateUserStore } from '~/lib/settings'

/**
 * A signed-in user's stored preferences take over this browser at sign-in: the theme at once (the theme sync
 * applies it), and the language the caller navigates to. Returns that language when it is one we serve.
 */
export function applyPreferences(profile: UserAnswer): Locale | undefined {
  const { darkMode, language } = profile.preferences
  const locale = interfaceLocales.find((l) => l === language)
  updateUserStore((store) => ({
    ...store,
    ...(locale ? { language: locale } : {}),
    settings: {
      ...store.settings,
      ...(darkMode === true || darkMode === false || darkMode === 'auto' ? { darkMode } : {}),
    },
  }))
  return locale
}
