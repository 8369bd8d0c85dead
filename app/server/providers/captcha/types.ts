import type { CaptchaAction, CaptchaChallenge } from '~/contracts/keys'

export interface CaptchaProvider {
  kind: 'altcha' | 'turnstile'
  /** What the widget needs to start for `action`: an ALTCHA challenge, or Turnstile's site key. */
  challenge(action: CaptchaAction): Promise<CaptchaChallenge>
  /** True only for a genuine, unexpired, never-used response issued for `expected.action`. */
  verify(response: string, expected: { action: CaptchaAction; remoteIp?: string }): Promise<boolean>
}
