import type {
  CaptchaChallenge,
  AltchaChallengeV1 as CaptchaChallengeV1,
  AltchaChallengeV2 as CaptchaChallengeV2,
  CaptchaAction,
} from '~/contracts/keys'
import { restCall } from '~/lib/rest-call'
import { challengeExpiry, isV1, isV2, solveToPayload } from './altcha'
import type { SolverRequest } from './solver.worker'

export interface CaptchaSolution {
  payload: string
  /** Milliseconds since the epoch after which the server refuses the solution. */
  expiresAt?: number
}

type PowChallenge = CaptchaChallengeV1 | CaptchaChallengeV2

/** One worker per core (at most 4); a v1 challenge is not split, so it gets one. */
function workerCount(challenge: PowChallenge): number {
  if (!isV2(challenge)) return 1
  return Math.max(1, Math.min(4, globalThis.navigator?.hardwareConcurrency ?? 1))
}

function solveInWorkers(challenge: PowChallenge, signal: AbortSignal): Promise<string | undefined> {
  const count = workerCount(challenge)
  const workers: Worker[] = []
  try {
    for (let i = 0; i < count; i++)
      workers.push(new Worker(new URL('./solver.worker.ts', import.meta.url), { type: 'module' }))
  } catch {
    workers.forEach((worker) => worker.terminate())
    return solveToPayload(challenge, signal)
  }
  const stop = () => workers.forEach((worker) => worker.terminate())
  return new Promise((resolve, reject) => {
    let settled = false
    let exhausted = 0
    const finish = (run: () => void) => {
      if (settled) return
      settled = true
      stop()
      run()
    }
    signal.addEventListener('abort', () => finish(() => resolve(undefined)))
    workers.forEach((worker, index) => {
      worker.onmessage = (event: MessageEvent<{ payload?: string; error?: string }>) => {
        if (event.data.error) return finish(() => reject(new Error(event.data.error)))
        if (event.data.payload) return finish(() => resolve(event.data.payload))
        // This worker's share had no answer; the challenge has none only when every share is exhausted.
        if (++exhausted === count) finish(() => resolve(undefined))
      }
      // A worker that cannot load (blocked by policy, old browser) still lets the page solve it itself.
      worker.onerror = (event) => {
        event.preventDefault()
        finish(() => solveToPayload(challenge, signal).then(resolve, reject))
      }
      worker.postMessage({ challenge, start: index, step: count } satisfies SolverRequest)
    })
  })
}

/** How a challenge is fetched: the dashboard passes its server function, the public pages use REST. */
export type FetchChallenge = (action: CaptchaAction, signal: AbortSignal) => Promise<CaptchaChallenge>

/** GET /api/v1/captcha/challenge, public and never cached (each challenge is redeemed once). */
const restChallenge: FetchChallenge = (action, signal) =>
  restCall<CaptchaChallenge>('GET', `captcha/challenge?action=${action}`, { signal })

/** The server answered with a captcha this widget cannot run (Turnstile is configured). */
export class UnsupportedChallengeError extends Error {}

/** Fetches a challenge for `action` (the server refuses its solution anywhere else) and solves it; resolves undefined only when aborted. */
export async function obtainCaptcha(
  action: CaptchaAction,
  signal: AbortSignal,
  fetchChallenge: FetchChallenge = restChallenge,
): Promise<CaptchaSolution | undefined> {
  const challenge = await fetchChallenge(action, signal)
  if (!isV2(challenge) && !isV1(challenge)) throw new UnsupportedChallengeError('Unsupported captcha provider')
  const payload = await solveInWorkers(challenge, signal)
  if (signal.aborted) return undefined
  if (payload === undefined) throw new Error('No solution found')
  return { payload, expiresAt: challengeExpiry(challenge) }
}
