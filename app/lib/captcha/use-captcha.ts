import { useCallback, useEffect, useRef, useState } from 'react'
import type { CaptchaAction } from '~/contracts/keys'
import { isCryptoSupported } from './altcha'
import { obtainCaptcha, UnsupportedChallengeError, type CaptchaSolution, type FetchChallenge } from './solve'

/** Spec §4 captcha states. `cleanup` is the last state, entered while the widget unmounts. */
export type CaptchaState = 'unloaded' | 'idle' | 'loading' | 'loaded' | 'error' | 'unsupported' | 'expired' | 'cleanup'

export interface Captcha {
  state: CaptchaState
  /** Starts verification (if not done yet) and resolves with the form value, or rejects when it fails. */
  ensure: () => Promise<string>
  /** Forgets a used solution: the server accepts each one once. */
  reset: () => void
}

export class CaptchaError extends Error {}

/** A captcha for one `action`: its solution is accepted by that call only. */
/** `fetchChallenge`: how to ask for a challenge (REST unless the screen has its own transport). */
export function useCaptcha(action: CaptchaAction, fetchChallenge?: FetchChallenge): Captcha {
  const [state, setState] = useState<CaptchaState>('unloaded')
  const solution = useRef<CaptchaSolution | undefined>(undefined)
  const pending = useRef<Promise<string> | undefined>(undefined)
  const controller = useRef<AbortController | undefined>(undefined)
  const expiryTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const stateRef = useRef<CaptchaState>('unloaded')

  const moveTo = useCallback((next: CaptchaState) => {
    stateRef.current = next
    setState(next)
  }, [])

  useEffect(() => {
    moveTo(isCryptoSupported() ? 'idle' : 'unsupported')
    return () => {
      stateRef.current = 'cleanup'
      controller.current?.abort()
      clearTimeout(expiryTimer.current)
    }
  }, [moveTo])

  const ensure = useCallback((): Promise<string> => {
    const current = stateRef.current
    if (current === 'unsupported') return Promise.reject(new CaptchaError('unsupported'))
    if (current === 'loaded' && solution.current && (solution.current.expiresAt ?? Infinity) > Date.now()) {
      return Promise.resolve(solution.current.payload)
    }
    if (pending.current) return pending.current
    const abort = new AbortController()
    controller.current = abort
    moveTo('loading')
    const run = obtainCaptcha(action, abort.signal, fetchChallenge)
      .then((solved) => {
        if (!solved) throw new CaptchaError('aborted')
        solution.current = solved
        moveTo('loaded')
        clearTimeout(expiryTimer.current)
        if (solved.expiresAt !== undefined) {
          expiryTimer.current = setTimeout(
            () => {
              solution.current = undefined
              moveTo('expired')
            },
            Math.max(0, solved.expiresAt - Date.now()),
          )
        }
        return solved.payload
      })
      .catch((error: unknown) => {
        if (stateRef.current !== 'cleanup') {
          if (!abort.signal.aborted) console.error('captcha', error instanceof Error ? error.message : error)
          moveTo(error instanceof UnsupportedChallengeError ? 'unsupported' : 'error')
        }
        throw error instanceof CaptchaError
          ? error
          : new CaptchaError(error instanceof Error ? error.message : String(error))
      })
      .finally(() => {
        pending.current = undefined
      })
    pending.current = run
    return run
  }, [action, fetchChallenge, moveTo])

  const reset = useCallback(() => {
    solution.current = undefined
    clearTimeout(expiryTimer.current)
    if (stateRef.current !== 'unsupported' && stateRef.current !== 'cleanup') moveTo('idle')
  }, [moveTo])

  return { state, ensure, reset }
}
