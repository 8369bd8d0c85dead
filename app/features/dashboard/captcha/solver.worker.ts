import type { CaptchaChallenge } from '../api-types'
import { solveChallenge } from './altcha'

/** Solves off the main thread so typing and scrolling stay smooth while the proof of work runs. */
self.onmessage = async (event: MessageEvent<CaptchaChallenge>) => {
  try {
    const number = await solveChallenge(event.data)
    self.postMessage({ number })
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
