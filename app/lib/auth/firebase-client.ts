import type { Auth } from 'firebase/auth'
import type { AuthConfig } from '~/contracts/account'

let auth: Promise<{ auth: Auth; sdk: typeof import('firebase/auth') }> | undefined

/**
 * The Firebase Auth SDK, imported on first use so that only the dashboard and sign-in screens ever download
 * it (marketing pages carry none of it). One instance per page, pointed at the emulator when the server says so.
 */
export function firebaseAuth(config: AuthConfig) {
  auth ??= Promise.all([import('firebase/app'), import('firebase/auth')]).then(([app, sdk]) => {
    const firebaseApp = app.initializeApp({
      apiKey: config.apiKey,
      authDomain: config.authDomain,
      projectId: config.projectId,
    })
    const instance = sdk.initializeAuth(firebaseApp, {
      persistence: [sdk.indexedDBLocalPersistence, sdk.browserLocalPersistence],
      popupRedirectResolver: sdk.browserPopupRedirectResolver,
    })
    if (config.emulatorUrl) sdk.connectAuthEmulator(instance, config.emulatorUrl, { disableWarnings: true })
    return { auth: instance, sdk }
  })
  return auth
}
