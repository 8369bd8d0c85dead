import type * as v from 'valibot'
import type { AuthConfig, PasswordPolicy, resetPasswordInput, signUpInput } from '~/contracts/account'
import { unmetPasswordRules } from '~/lib/password-policy'
import { getDb } from '../../db/client'
import { IdentityRefused, PasswordPolicyUnmet, RateLimited } from '../../domain/refusals'
import { queueSignUpNotice } from '../../domain/sign-up-notice'
import { serverEnv } from '../../env'
import { errorFields, log } from '../../log'
import { identityConfig } from '../../providers/identity/config'
import { kickOutbox } from '../../providers/email'
import { identityToolkit } from '../../providers/identity/identity-toolkit'
import type { Caller } from '../caller'
import { rateLimit } from '../rate-limit'
import { requireIdentityConfig } from './identity'
import { existingAccountNotice } from './sign-up-notice'

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

/** What sign-up answers, whether the address was new or already had an account. */
const SIGN_UP_ANSWER = { detail: 'Check your e-mail to continue' }
/** Mails to one address about sign-ups with it, in an hour: others with its address cannot flood its owner. */
const NOTICES_PER_HOUR = 3

/**
 * Sign-up answers the same whether or not the address has an account, so it cannot be used to find out which
 * addresses do: a new address gets its account and the identity service's verification mail; an address that
 * has one gets our mail saying someone tried, with the way to sign in or reset. The e-mail tells its owner.
 */
export async function signUpFor(caller: Caller, input: v.InferOutput<typeof signUpInput>): Promise<{ detail: string }> {
  const config = requireIdentityConfig()
  await rateLimit(`sign-up:addr:${caller.network}`, ATTEMPTS_PER_HOUR, 3_600_000)
  checkPassword(input.password)
  let created: { idToken: string }
  try {
    created = await identityToolkit<{ idToken: string }>(config, 'signUp', {
      email: input.email,
      password: input.password,
      returnSecureToken: true,
    })
  } catch (error) {
    if (!(error instanceof IdentityRefused && error.code === 'email-already-in-use')) throw error
    await tellOwner(input.email)
    return SIGN_UP_ANSWER
  }
  try {
    await identityToolkit(config, 'sendOobCode', { requestType: 'VERIFY_EMAIL', idToken: created.idToken })
  } catch (error) {
    // The account exists: its owner signs in and asks for the code again from the Account tab.
    log('warn', 'verification mail after sign-up failed', { error: errorFields(error) })
  }
  return SIGN_UP_ANSWER
}

async function tellOwner(email: string): Promise<void> {
  try {
    await rateLimit(`sign-up-notice:${email.toLowerCase()}`, NOTICES_PER_HOUR, 3_600_000)
  } catch (error) {
    if (error instanceof RateLimited) return
    throw error
  }
  await queueSignUpNotice(await getDb(), email, existingAccountNotice())
  kickOutbox()
}

/** Completes a reset with the one-time code from the e-mail, after the policy check. */
export async function resetPasswordFor(
  caller: Caller,
  input: v.InferOutput<typeof resetPasswordInput>,
): Promise<{ email: string }> {
  const config = requireIdentityConfig()
  await rateLimit(`reset:addr:${caller.network}`, ATTEMPTS_PER_HOUR, 3_600_000)
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
