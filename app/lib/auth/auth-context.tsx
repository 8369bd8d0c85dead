import type { User } from 'firebase/auth'
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react'
import type { AuthConfig, UserAnswer } from '~/contracts/account'
import { accountApi } from './account-api'
import { firebaseAuth } from './firebase-client'
import { identityCode } from './identity-message'
import { endsSignIn, refreshDelay, retryDelay } from './token-refresh'

export type AuthStatus = 'loading' | 'unavailable' | 'signed-out' | 'signed-in'

export interface AuthState {
  status: AuthStatus
  config: AuthConfig | undefined
  /** The stored user (our account service), while signed in. */
  profile: UserAnswer | null
  /** The identity service's user, while signed in. */
  identity: User | null
  /** Opens the server's session from the identity service's fresh sign-in. */
  completeSignIn: (user: User) => Promise<UserAnswer>
  signOut: (reason?: 'ended') => Promise<void>
  setProfile: (profile: UserAnswer) => void
  /** A current ID token for calls that carry one (spec §6). */
  idToken: () => Promise<string>
  /** Set when the sign-in ended by itself (a disabled account, an expired token): the reason's code. */
  endedBy: string | undefined
}

const AuthContext = createContext<AuthState | undefined>(undefined)

export function useAuth(): AuthState {
  const state = useContext(AuthContext)
  if (!state) throw new Error('useAuth outside AuthProvider')
  return state
}

/**
 * Who is signed in. The server's session (an HttpOnly cookie) is the truth the dashboard's calls use; the
 * identity SDK is loaded only when there is a session or the visitor signs in, so an anonymous dashboard
 * downloads none of it.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const [config, setConfig] = useState<AuthConfig>()
  const [status, setStatus] = useState<AuthStatus>('loading')
  const [profile, setProfile] = useState<UserAnswer | null>(null)
  const [identity, setIdentity] = useState<User | null>(null)
  const [endedBy, setEndedBy] = useState<string>()
  const refreshTimer = useRef<ReturnType<typeof setTimeout>>(undefined)

  const clear = useCallback(() => {
    clearTimeout(refreshTimer.current)
    setProfile(null)
    setIdentity(null)
    setStatus('signed-out')
  }, [])

  const signOut = useCallback(
    async (reason?: 'ended') => {
      if (!reason) setEndedBy(undefined)
      // Signed out on screen first, so nothing asks for the account's data while the session ends.
      clear()
      await accountApi.endSession().catch(() => undefined)
      if (config?.enabled) {
        const { auth, sdk } = await firebaseAuth(config)
        await sdk.signOut(auth).catch(() => undefined)
      }
    },
    [config, clear],
  )

  /** Refreshes the token 5 minutes before it expires; retries with backoff; ends the sign-in when told to. */
  const scheduleRefresh = useCallback(
    (user: User, attempt = 0) => {
      clearTimeout(refreshTimer.current)
      const refresh = async () => {
        try {
          await user.getIdToken(true)
          scheduleRefresh(user, 0)
        } catch (error) {
          const code = identityCode(error)
          if (!endsSignIn(code)) return scheduleRefresh(user, attempt + 1)
          setEndedBy(code)
          await signOut('ended')
        }
      }
      if (attempt > 0) {
        refreshTimer.current = setTimeout(refresh, retryDelay(attempt))
        return
      }
      void user.getIdTokenResult().then(
        (result) => (refreshTimer.current = setTimeout(refresh, refreshDelay(Date.parse(result.expirationTime)))),
        () => (refreshTimer.current = setTimeout(refresh, retryDelay(1))),
      )
    },
    [signOut],
  )

  useEffect(() => {
    let cancelled = false
    void (async () => {
      const loaded = await accountApi.config().catch(() => undefined)
      if (cancelled) return
      setConfig(loaded)
      if (!loaded?.enabled) return setStatus('unavailable')
      const stored = await accountApi.session().catch(() => null)
      if (cancelled) return
      if (!stored) return setStatus('signed-out')
      const { auth, sdk } = await firebaseAuth(loaded)
      await auth.authStateReady()
      if (cancelled) return
      if (!auth.currentUser || auth.currentUser.uid !== stored.uid) {
        // The identity service no longer knows this browser's user: the server's session goes too.
        await accountApi.endSession().catch(() => undefined)
        await sdk.signOut(auth).catch(() => undefined)
        return setStatus('signed-out')
      }
      setProfile(stored)
      setIdentity(auth.currentUser)
      setStatus('signed-in')
    })()
    return () => {
      cancelled = true
    }
  }, [])

  useEffect(() => {
    if (identity) scheduleRefresh(identity)
    return () => clearTimeout(refreshTimer.current)
  }, [identity, scheduleRefresh])

  const completeSignIn = useCallback(async (user: User) => {
    const stored = await accountApi.startSession(await user.getIdToken(), {
      displayName: user.displayName,
      photoURL: user.photoURL,
    })
    setEndedBy(undefined)
    setProfile(stored)
    setIdentity(user)
    setStatus('signed-in')
    return stored
  }, [])

  const idToken = useCallback(async () => {
    if (!identity) throw new Error('not signed in')
    return identity.getIdToken()
  }, [identity])

  const value = useMemo<AuthState>(
    () => ({ status, config, profile, identity, completeSignIn, signOut, setProfile, idToken, endedBy }),
    [status, config, profile, identity, completeSignIn, signOut, idToken, endedBy],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
