import type { AltchaChallengeV1 as CaptchaChallengeV1, AltchaChallengeV2 as CaptchaChallengeV2 } from '~/contracts/keys'
import { solveToPayload } from './altcha'

export interface SolverRequest {
  challenge: CaptchaChallengeV1 | CaptchaChallengeV2
  start: number
  step: number
}

/** Solves off the main thread so typing and scrolling stay smooth while the proof of work runs. */
self.onmessage = async (event: MessageEvent<SolverRequest>) => {
  const { challenge, start, step } = event.data
  try {
    self.postMessage({ payload: await solveToPayload(challenge, undefined, { start, step }) })
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
