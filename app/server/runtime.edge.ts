import type { ServerEnv } from './env'
import type * as NodeRuntime from './runtime'

export const runtime: typeof NodeRuntime.runtime = 'edge'

/**
 * A Worker has no disk for the embedded database, and each of its isolates would sign captcha challenges
 * and sandbox payment events with its own random key (what one issued would fail on the next): all three
 * must be configured (the sandbox's key only where PAYMENTS_SANDBOX=on asks for the sandbox).
 */
export const runtimeProblems: typeof NodeRuntime.runtimeProblems = (env: ServerEnv) => [
  ...(env.DATABASE_URL ? [] : ['DATABASE_URL must be set: the edge build has no embedded database (PGlite)']),
  ...(env.CAPTCHA_SECRET || env.TURNSTILE_SECRET_KEY
    ? []
    : ['CAPTCHA_SECRET must be set (or Turnstile configured): isolates share no random key']),
  ...(env.PAYMENTS_SANDBOX === 'off' || env.PAYMENTS_SANDBOX_SECRET
    ? []
    : ['PAYMENTS_SANDBOX_SECRET must be set when payments use the sandbox: isolates share no random key']),
]
