import { describe, it } from 'vitest'

/** What a suite that needs an external service does: run it, fail for want of it, or skip it. */
export type ServiceGate = 'run' | 'fail' | 'skip'

/** CI as most tools read it: set, and not `false` or `0`. */
function isCi(env: Record<string, string | undefined>): boolean {
  const ci = env.CI?.trim().toLowerCase()
  return !!ci && ci !== 'false' && ci !== '0'
}

/** The variable names the service (TEST_DATABASE_URL, TEST_REDIS_URL); CI must provide every service. */
export function serviceGate(variable: string, env: Record<string, string | undefined> = process.env): ServiceGate {
  if (env[variable]) return 'run'
  return isCi(env) ? 'fail' : 'skip'
}

/**
 * `describe` for a suite that needs the service `variable` points at. Set: the suite runs (an unreachable
 * service fails it). Unset in CI: one failing test names the variable, so a missing service never passes
 * as green. Unset locally: the suite is skipped with one printed notice.
 */
export function describeWithService(variable: string, name: string, body: () => void): void {
  describeNeeding(serviceGate(variable) === 'run' ? undefined : `${variable} set`, name, body)
}

/**
 * `describe` for a suite that needs something the machine may lack, `missing` naming it (undefined: nothing
 * missing). CI fails for want of it in one test; elsewhere the suite skips with one printed notice.
 */
export function describeNeeding(missing: string | undefined, name: string, body: () => void): void {
  if (!missing) {
    describe(name, body)
  } else if (isCi(process.env)) {
    describe(name, () => {
      it(`needs ${missing}`, () => {
        throw new Error(`"${name}" needs ${missing}, and CI must run it against the real service (.ci/run provides it)`)
      })
    })
  } else {
    console.warn(`[skipped] "${name}": needs ${missing}`)
    describe.skip(name, body)
  }
}
