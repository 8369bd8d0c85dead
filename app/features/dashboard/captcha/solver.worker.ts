import type { CaptchaChallengeV1, CaptchaChallengeV2 } from '../api-types'
import { solveToPayload } from './altcha'

/** Solves off the main thread so typing and scrolling stay smooth while the proof of work runs. */
self.onmessage = async (event: MessageEvent<CaptchaChallengeV1 | CaptchaChallengeV2>) => {
  try {
    self.postMessage({ payload: await solveToPayload(event.data) })
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
