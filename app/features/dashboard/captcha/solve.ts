import { api } from '../api-client'
import type { CaptchaChallengeV1, CaptchaChallengeV2 } from '../api-types'
import { challengeExpiry, isV1, isV2, solveToPayload } from './altcha'

export interface CaptchaSolution {
  payload: string
  /** Milliseconds since the epoch after which the server refuses the solution. */
  expiresAt?: number
}

type PowChallenge = CaptchaChallengeV1 | CaptchaChallengeV2

function solveInWorker(challenge: PowChallenge, signal: AbortSignal): Promise<string | undefined> {
  let worker: Worker
  try {
    worker = new Worker(new URL('./solver.worker.ts', import.meta.url), { type: 'module' })
  } catch {
    return solveToPayload(challenge, signal)
  }
  return new Promise((resolve, reject) => {
    const stop = () => worker.terminate()
    signal.addEventListener('abort', () => {
      stop()
      resolve(undefined)
    })
    worker.onmessage = (event: MessageEvent<{ payload?: string; error?: string }>) => {
      stop()
      if (event.data.error) reject(new Error(event.data.error))
      else resolve(event.data.payload)
    }
    // A worker that cannot load (blocked by policy, old browser) still lets the page solve it itself.
    worker.onerror = (event) => {
      event.preventDefault()
      stop()
      solveToPayload(challenge, signal).then(resolve, reject)
    }
    worker.postMessage(challenge)
  })
}

/** The server answered with a captcha this widget cannot run (Turnstile is configured). */
export class UnsupportedChallengeError extends Error {}

/** Fetches a challenge and solves it; resolves undefined only when aborted. */
export async function obtainCaptcha(signal: AbortSignal): Promise<CaptchaSolution | undefined> {
  const challenge = await api.captchaChallenge(signal)
  if (!isV2(challenge) && !isV1(challenge)) throw new UnsupportedChallengeError('Unsupported captcha provider')
  const payload = await solveInWorker(challenge, signal)
  if (signal.aborted) return undefined
  if (payload === undefined) throw new Error('No solution found')
  return { payload, expiresAt: challengeExpiry(challenge) }
}
