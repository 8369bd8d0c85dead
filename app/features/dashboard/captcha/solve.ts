import { api } from '../api-client'
import type { CaptchaChallenge } from '../api-types'
import { challengeExpiry, encodeSolution, solveChallenge } from './altcha'

export interface CaptchaSolution {
  payload: string
  /** Milliseconds since the epoch after which the server refuses the solution. */
  expiresAt?: number
}

function solveInWorker(challenge: CaptchaChallenge, signal: AbortSignal): Promise<number | undefined> {
  let worker: Worker
  try {
    worker = new Worker(new URL('./solver.worker.ts', import.meta.url), { type: 'module' })
  } catch {
    return solveChallenge(challenge, signal)
  }
  return new Promise((resolve, reject) => {
    const stop = () => worker.terminate()
    signal.addEventListener('abort', () => {
      stop()
      resolve(undefined)
    })
    worker.onmessage = (event: MessageEvent<{ number?: number; error?: string }>) => {
      stop()
      if (event.data.error) reject(new Error(event.data.error))
      else resolve(event.data.number ?? undefined)
    }
    // A worker that cannot load (blocked by policy, old browser) still lets the page solve it itself.
    worker.onerror = (event) => {
      event.preventDefault()
      stop()
      solveChallenge(challenge, signal).then(resolve, reject)
    }
    worker.postMessage(challenge)
  })
}

export class CaptchaUnsolvedError extends Error {}

/** Fetches a challenge and solves it; resolves undefined only when aborted. */
export async function obtainCaptcha(signal: AbortSignal): Promise<CaptchaSolution | undefined> {
  const challenge = await api.captchaChallenge(signal)
  const started = Date.now()
  const number = await solveInWorker(challenge, signal)
  if (signal.aborted) return undefined
  if (number === undefined) throw new CaptchaUnsolvedError('No solution found')
  return { payload: encodeSolution(challenge, number, Date.now() - started), expiresAt: challengeExpiry(challenge.salt) }
}
