import type { CaptchaChallenge } from '~/contracts/keys'

export interface CaptchaProvider {
  kind: 'altcha' | 'turnstile'
  /** What the widget needs to start: an ALTCHA challenge, or Turnstile's site key. */
  challenge(): Promise<CaptchaChallenge>
  /** True only for a genuine, unexpired, never-used response. */
  verify(response: string, remoteIp?: string): Promise<boolean>
}
