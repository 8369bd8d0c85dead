/** A limit's state as the answer headers report it. */
export interface LimitState {
  limit: number
  remaining: number
  /** Whole seconds until the window ends, rounded up (`X-RateLimit-Reset`). */
  resetSeconds: number
  /** Milliseconds until the window ends (OpenAI's durations). */
  resetMs: number
}

/**
 * A duration as OpenAI writes `x-ratelimit-reset-*` (Go's `time.Duration` text, to the millisecond): `17ms`,
 * `1s`, `8.64s`, `1m0s`, `6m0.5s`; clients such as LangChain and LiteLLM parse exactly this.
 */
export function openAiDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms))
  if (whole === 0) return '0s'
  if (whole < 1000) return `${whole}ms`
  const hours = Math.floor(whole / 3_600_000)
  const minutes = Math.floor((whole % 3_600_000) / 60_000)
  const seconds = ((whole % 60_000) / 1000).toFixed(3).replace(/\.?0+$/, '')
  return `${hours ? `${hours}h` : ''}${hours || minutes ? `${minutes}m` : ''}${seconds}s`
}

/**
 * The request limit's headers: this API's own `X-RateLimit-Limit/Remaining/Reset` (`Reset` in seconds from
 * now) and OpenAI's `x-ratelimit-{limit,remaining,reset}-requests`, which its clients read.
 */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetSeconds),
    'x-ratelimit-limit-requests': String(state.limit),
    'x-ratelimit-remaining-requests': String(state.remaining),
    'x-ratelimit-reset-requests': openAiDuration(state.resetMs),
  }
}

/** The token-per-minute limit's headers, as OpenAI sends them: `x-ratelimit-{limit,remaining,reset}-tokens`. */
export function tokenRateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'x-ratelimit-limit-tokens': String(state.limit),
    'x-ratelimit-remaining-tokens': String(state.remaining),
    'x-ratelimit-reset-tokens': openAiDuration(state.resetMs),
  }
}
