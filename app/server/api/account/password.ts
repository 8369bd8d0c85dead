import type * as v from 'valibot'
import type { AuthConfig, PasswordPolicy, resetPasswordInput, signUpInput } from '~/contracts/account'
import { unmetPasswordRules } from '~/lib/password-policy'
import { PasswordPolicyUnmet } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { log } from '../../log'
import { identityConfig } from '../../providers/identity/config'
import { identityToolkit } from '../../providers/identity/identity-toolkit'
import type { Caller } from '../caller'
import { clientNetwork } from '../client-address'
import { rateLimit } from '../rate-limit'
import { requireIdentityConfig } from './identity'

/** Sign-ups and password resets one address may attempt in an hour: the identity service is not ours to flood. */
const ATTEMPTS_PER_HOUR = 20

function passwordPolicy(): PasswordPolicy {
  const env = serverEnv()
  return {
    enforcement: env.PASSWORD_POLICY,
    minLength: env.PASSWORD_MIN_LENGTH,
    maxLength: env.PASSWORD_MAX_LENGTH ?? null,
    require: env.PASSWORD_REQUIRE,
  }
}

/** Spec §5, enforced here: ENFORCE refuses, AUDIT lets it through and logs which rules failed, OFF skips. */
function checkPassword(password: string): void {
  const policy = passwordPolicy()
  if (policy.enforcement === 'OFF') return
  const unmet = unmetPasswordRules(password, policy)
  if (!unmet.length) return
  if (policy.enforcement === 'ENFORCE') throw new PasswordPolicyUnmet(unmet)
  log('warn', 'password-policy.audit', { unmet })
}

export async function signUpFor(caller: Caller, input: v.InferOutput<typeof signUpInput>): Promise<{ uid: string }> {
  const config = requireIdentityConfig()
  await rateLimit(`sign-up:addr:${clientNetwork(caller.request)}`, ATTEMPTS_PER_HOUR, 3_600_000)
  checkPassword(input.password)
  const answer = await identityToolkit<{ localId: string }>(config, 'signUp', {
    email: input.email,
    password: input.password,
    returnSecureToken: false,
  })
  return { uid: answer.localId }
}

/** Completes a reset with the one-time code from the e-mail, after the policy check. */
export async function resetPasswordFor(
  caller: Caller,
  input: v.InferOutput<typeof resetPasswordInput>,
): Promise<{ email: string }> {
  const config = requireIdentityConfig()
  await rateLimit(`reset:addr:${clientNetwork(caller.request)}`, ATTEMPTS_PER_HOUR, 3_600_000)
  checkPassword(input.newPassword)
  const answer = await identityToolkit<{ email: string }>(config, 'resetPassword', {
    oobCode: input.oobCode,
    newPassword: input.newPassword,
  })
  return { email: answer.email }
}

/** What the browser's SDK starts with; `enabled: false` when no Firebase project is configured. */
export function authConfigFor(): AuthConfig {
  const env = serverEnv()
  const config = identityConfig(env)
  return {
    enabled: !!config,
    apiKey: config?.apiKey ?? '',
    authDomain: config?.authDomain ?? '',
    projectId: config?.projectId ?? '',
    emulatorUrl: config?.emulatorUrl ?? null,
    providers: { google: env.AUTH_GOOGLE, github: env.AUTH_GITHUB },
    passwordPolicy: passwordPolicy(),
  }
}
