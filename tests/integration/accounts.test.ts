import { sql } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { rowsOf } from '~/server/db/rows'
import { authEmulator, emulatorCodes, type AuthEmulator } from '../support/auth-emulator'
import { apiDatabase, call, scalar, solvedCaptcha } from '../support/api'

let emulator: AuthEmulator
const database = apiDatabase({
  env: async () => {
    emulator = await authEmulator()
    return { ...emulator.env, PASSWORD_POLICY: 'ENFORCE', PASSWORD_MIN_LENGTH: '10', PASSWORD_REQUIRE: 'lower,numeric' }
  },
})
afterAll(() => emulator?.stop())

let people = 0
const newEmail = () => `person${++people}-${Date.now()}@example.com`
const password = 'correct horse 42'

/** Signs up through our API (the policy check) and signs in at the identity service, as the dashboard does. */
async function signedUp(email = newEmail()) {
  const { status } = await call('POST', '/api/v1/account/sign_up', { json: { email, password } })
  expect(status).toBe(200)
  const { idToken, localId } = await emulator.signIn(email, password)
  return { email, idToken, uid: localId }
}

/** A session cookie for a fresh sign-in. */
async function sessionOf(idToken: string, profile: object = {}) {
  const { status, response, body } = await call('POST', '/api/v1/account/session', {
    bearer: idToken,
    json: profile,
  })
  expect(status).toBe(200)
  const cookie = response.headers.get('set-cookie')!
  expect(cookie).toMatch(/^session=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; Secure; SameSite=Lax$/)
  return { cookie: cookie.split(';')[0], user: body }
}

const withCookie = (cookie: string) => ({ headers: { cookie } })

describe('accounts against the Auth emulator', () => {
  it('tells the browser the sign-in settings, with the emulator and the password policy', async () => {
    const { body } = await call('GET', '/api/v1/account/config')
    expect(body).toMatchObject({
      enabled: true,
      projectId: emulator.projectId,
      emulatorUrl: emulator.url,
      passwordPolicy: { enforcement: 'ENFORCE', minLength: 10, require: ['lower', 'numeric'] },
    })
  })

  it('signs up only with a password that meets the policy', async () => {
    const email = newEmail()
    const weak = await call('POST', '/api/v1/account/sign_up', { json: { email, password: 'short1' } })
    expect(weak.status).toBe(400)
    expect(weak.body.detail).toBe('auth/password-does-not-meet-requirements: minLength')
    await expect(emulator.signIn(email, 'short1')).rejects.toThrow()
    const noDigit = await call('POST', '/api/v1/account/sign_up', {
      json: { email, password: 'long enough but no digit' },
    })
    expect(noDigit.body.detail).toBe('auth/password-does-not-meet-requirements: numeric')
    await signedUp(email)
  })

  it('answers a sign-up the same whether or not the address has an account, and tells the owner by e-mail', async () => {
    const verificationCodes = async (to: string) =>
      (await emulatorCodes(emulator)).filter((code) => code.email === to && code.requestType === 'VERIFY_EMAIL').length
    const email = newEmail()
    const fresh = await call('POST', '/api/v1/account/sign_up', { json: { email, password } })
    const again = await call('POST', '/api/v1/account/sign_up', {
      json: { email: email.toUpperCase(), password: 'another password 9' },
    })
    expect(again.status).toBe(fresh.status)
    expect(again.body).toEqual(fresh.body)
    expect(fresh).toMatchObject({ status: 200, body: { detail: 'Check your e-mail to continue' } })
    expect(again.response.headers.get('content-length')).toBe(fresh.response.headers.get('content-length'))

    // The new address got the identity service's verification mail; the second try changed nothing there.
    expect(await verificationCodes(email)).toBe(1)
    expect((await emulator.signIn(email, password)).idToken).toBeTruthy()
    await expect(emulator.signIn(email, 'another password 9')).rejects.toThrow()
    // The owner learns of it by e-mail, with the way to sign in or reset.
    const [notice] = rowsOf<{ subject: string; text: string }>(
      await database.db.execute(
        sql`select subject, text from email_outbox where lower("to") = ${email} and kind = 'sign-up-existing-account'`,
      ),
    )
    expect(notice.subject).toMatch(/someone tried to create an account with your e-mail/)
    expect(notice.text).toContain('http://localhost:3000/sign-in')
    expect(notice.text).toContain('http://localhost:3000/sign-in?mode=reset')
  })

  it('verifies the e-mail with the one-time code it sent', async () => {
    const { email, idToken } = await signedUp()
    expect((await emulator.lookup(idToken)).users[0].emailVerified).toBe(false)
    await emulator.sendCode({ requestType: 'VERIFY_EMAIL', idToken })
    const { oobCode } = await emulator.codeFor(email, 'VERIFY_EMAIL')
    await emulator.applyCode(oobCode)
    const fresh = await emulator.signIn(email, password)
    expect((await emulator.lookup(fresh.idToken)).users[0].emailVerified).toBe(true)
  })

  it('resets a password with the code, refusing a new password the policy does not allow', async () => {
    const { email } = await signedUp()
    await emulator.sendCode({ requestType: 'PASSWORD_RESET', email })
    const { oobCode } = await emulator.codeFor(email, 'PASSWORD_RESET')
    const weak = await call('POST', '/api/v1/account/reset_password', {
      json: { oobCode, newPassword: 'weak' },
    })
    expect(weak.status).toBe(400)
    const reset = await call('POST', '/api/v1/account/reset_password', {
      json: { oobCode, newPassword: 'a new password 7' },
    })
    expect(reset).toMatchObject({ status: 200, body: { email } })
    await expect(emulator.signIn(email, password)).rejects.toThrow()
    expect((await emulator.signIn(email, 'a new password 7')).idToken).toBeTruthy()
    const reused = await call('POST', '/api/v1/account/reset_password', {
      json: { oobCode, newPassword: 'yet another one 8' },
    })
    expect(reused.body.detail).toBe('auth/invalid-action-code')
  })

  it('signs in with a provider (a made-up Google credential) and keeps the user', async () => {
    const email = newEmail()
    const { idToken, localId } = await emulator.signInWithProvider('google.com', { sub: `g-${people}`, email })
    const { cookie, user } = await sessionOf(idToken)
    expect(user).toMatchObject({ uid: localId, email })
    const me = await call('GET', '/api/v1/account/session', withCookie(cookie))
    expect(me.body.user.uid).toBe(localId)
  })

  it('issues a session cookie for a recent sign-in and revokes it on sign-out', async () => {
    const { idToken, uid } = await signedUp()
    const { cookie } = await sessionOf(idToken)
    // The sign-in is the user's own, from the address it came from, in its request.
    const [opened] = rowsOf<Record<string, string>>(
      await database.db.execute(
        sql`select actor, client_address, request_id from audit_log where account_id = ${uid} and action = 'session.opened'`,
      ),
    )
    expect(opened).toMatchObject({ actor: `user:${uid}`, client_address: '203.0.113.7' })
    expect(opened.request_id).toMatch(/^[\w-]{36}$/)
    expect((await call('GET', '/api/v1/account/session', withCookie(cookie))).body.user.uid).toBe(uid)
    const out = await call('DELETE', '/api/v1/account/session', withCookie(cookie))
    expect(out.response.headers.get('set-cookie')).toMatch(/^session=; .*Max-Age=0/)
    const after = await call('GET', '/api/v1/account/session', withCookie(cookie))
    expect(after).toMatchObject({ status: 200, body: { user: null } })
    const keysAfter = await call('GET', '/api/v1/account/keys', withCookie(cookie))
    expect(keysAfter).toMatchObject({ status: 401, body: { detail: 'Sign in to continue' } })
    const forged = await call('GET', '/api/v1/account/keys', withCookie(`session=${'a'.repeat(43)}`))
    expect(forged.status).toBe(401)
  })

  it('ends every session of a user deleted or disabled at the identity service at their next use after the check interval', async () => {
    process.env.SESSION_CHECK_SECONDS = '1'
    try {
      const sessionCount = (uid: string) =>
        scalar(database.db, sql`select count(*) from sessions where uid = ${uid} and revoked_at is null`)
      const gone = await signedUp()
      const laptop = await sessionOf(gone.idToken)
      const phone = await sessionOf((await emulator.signIn(gone.email, password)).idToken)
      const disabled = await signedUp()
      const theirs = await sessionOf(disabled.idToken)
      const kept = await signedUp()
      const ours = await sessionOf(kept.idToken)

      await emulator.admin('delete', { localId: gone.uid })
      await emulator.admin('update', { localId: disabled.uid, disableUser: true })
      await new Promise((resolve) => setTimeout(resolve, 1200))

      const keys = await call('GET', '/api/v1/account/keys', withCookie(laptop.cookie))
      expect(keys).toMatchObject({ status: 401, body: { detail: 'Sign in to continue' } })
      // Deleted at the identity service: the phone's session ended with the laptop's, unused.
      expect(await sessionCount(gone.uid)).toBe(0)
      const phoneAfter = await call('GET', '/api/v1/account/session', withCookie(phone.cookie))
      expect(phoneAfter).toMatchObject({ status: 200, body: { user: null } })
      const profile = await call('PATCH', '/api/v1/account/profile', {
        ...withCookie(theirs.cookie),
        json: { displayName: 'still here?' },
      })
      expect(profile).toMatchObject({ status: 401, body: { detail: 'Sign in to continue' } })
      expect(await sessionCount(disabled.uid)).toBe(0)

      // A user who is still there keeps the session, confirmed again for another interval.
      const before = await scalar(
        database.db,
        sql`select extract(epoch from max(confirmed_at)) from sessions where uid = ${kept.uid}`,
      )
      const mine = await call('GET', '/api/v1/account/keys', withCookie(ours.cookie))
      expect(mine).toMatchObject({ status: 200, body: { keys: [] } })
      const after = await scalar(
        database.db,
        sql`select extract(epoch from max(confirmed_at)) from sessions where uid = ${kept.uid}`,
      )
      expect(after).toBeGreaterThan(before)
    } finally {
      delete process.env.SESSION_CHECK_SECONDS
    }
  })

  it("ends every session that began before the user's password was reset or changed, at its next check", async () => {
    process.env.SESSION_CHECK_SECONDS = '1'
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
    try {
      const victim = await signedUp()
      const stolen = await sessionOf(victim.idToken) // the thief's copy of the victim's session
      const changer = await signedUp()
      const older = await sessionOf(changer.idToken)
      const bystander = await signedUp()
      const kept = await sessionOf(bystander.idToken)
      const before = [await emulator.validSince(victim.uid), await emulator.validSince(changer.uid)]
      // The identity service keeps validSince in whole seconds: a change in the second of a sign-in is after it.
      await sleep(1100)

      // The victim resets the password with the mailed code, through this server; the other changes it signed in.
      await emulator.sendCode({ requestType: 'PASSWORD_RESET', email: victim.email })
      const { oobCode } = await emulator.codeFor(victim.email, 'PASSWORD_RESET')
      const reset = await call('POST', '/api/v1/account/reset_password', {
        json: { oobCode, newPassword: 'a new password 7' },
      })
      expect(reset.status).toBe(200)
      await emulator.changePassword(changer.idToken, 'another new one 8')
      // The emulator revokes their tokens as the real service does: validSince moves to the change.
      const after = [await emulator.validSince(victim.uid), await emulator.validSince(changer.uid)]
      expect(after[0]).toBeGreaterThan(before[0])
      expect(after[1]).toBeGreaterThan(before[1])
      const fresh = await sessionOf((await emulator.signIn(victim.email, 'a new password 7')).idToken)
      // An ID token of the old sign-in, still unexpired, opens a session after the reset: it began before it.
      const late = await sessionOf(victim.idToken)
      await sleep(1200)

      for (const { cookie } of [stolen, older, late]) {
        const keys = await call('GET', '/api/v1/account/keys', withCookie(cookie))
        expect(keys).toMatchObject({ status: 401, body: { detail: 'Sign in to continue' } })
      }
      // A sign-in after the change, and another user's session, go on.
      expect((await call('GET', '/api/v1/account/keys', withCookie(fresh.cookie))).status).toBe(200)
      expect((await call('GET', '/api/v1/account/keys', withCookie(kept.cookie))).status).toBe(200)
      const ended = rowsOf<{ account_id: string }>(
        await database.db.execute(
          sql`select account_id from audit_log where action = 'session.revoked' and details->>'reason' = 'tokens_revoked'`,
        ),
      ).map((row) => row.account_id)
      // One row per session ended: the victim's two taken before the reset, the other user's one.
      expect(ended.sort()).toEqual([victim.uid, victim.uid, changer.uid].sort())
    } finally {
      delete process.env.SESSION_CHECK_SECONDS
    }
  })

  it("opens no session from an old sign-in, nor from a token that is not the identity service's", async () => {
    const now = Math.floor(Date.now() / 1000)
    const claims = {
      iss: `https://securetoken.google.com/${emulator.projectId}`,
      aud: emulator.projectId,
      sub: 'old-sign-in',
      iat: now - 30,
      exp: now + 3600,
      auth_time: now - 3600,
    }
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.`
    const old = await call('POST', '/api/v1/account/session', { bearer: unsigned, json: {} })
    expect(old).toMatchObject({ status: 401, body: { detail: 'auth/requires-recent-login' } })
    const junk = await call('POST', '/api/v1/account/session', { bearer: 'junk', json: {} })
    expect(junk).toMatchObject({ status: 401, body: { detail: 'Invalid or expired identity token' } })
  })

  it('answers getUserInfo from what is stored, which the profile screen changes', async () => {
    const { idToken, email, uid } = await signedUp()
    const first = await call('POST', '/api/v1/account/getUserInfo', {
      bearer: idToken,
      json: { displayName: 'Ada', email, photoURL: null, preferences: { language: 'de', darkMode: true } },
    })
    expect(first.body).toEqual({
      uid,
      email,
      displayName: 'Ada',
      photoURL: null,
      preferences: { language: 'de', darkMode: true },
      notificationEmail: null,
    })
    // Another device sends its own (older) profile: the stored one wins.
    const second = await call('POST', '/api/v1/account/getUserInfo', {
      bearer: idToken,
      json: { displayName: 'Someone else', preferences: { language: 'en-US' } },
    })
    expect(second.body.displayName).toBe('Ada')
    const { cookie } = await sessionOf(idToken)
    const changed = await call('PATCH', '/api/v1/account/profile', {
      ...withCookie(cookie),
      json: { displayName: 'Ada L.', notificationEmail: 'alerts@example.com', preferences: { darkMode: 'auto' } },
    })
    expect(changed.body).toMatchObject({
      displayName: 'Ada L.',
      notificationEmail: 'alerts@example.com',
      preferences: { language: 'de', darkMode: 'auto' },
    })
    const third = await call('POST', '/api/v1/account/getUserInfo', { bearer: idToken, json: {} })
    expect(third.body).toEqual(changed.body)
    const bad = await call('PATCH', '/api/v1/account/profile', {
      ...withCookie(cookie),
      json: { photoURL: 'javascript:alert(1)' },
    })
    expect(bad.status).toBe(422)
    const noToken = await call('POST', '/api/v1/account/getUserInfo', { json: {} })
    expect(noToken.status).toBe(401)
  })

  it('counts the tickets filed from the e-mail only once the address is verified', async () => {
    const { idToken, email } = await signedUp()
    await database.db.execute(
      sql`insert into contact_leads (name, email, company, message, locale) values ('A', ${email.toUpperCase()}, 'C', 'M', 'en-US')`,
    )
    // Anyone can sign up with this address: until it is verified, what was filed from it is not theirs to count.
    expect((await call('GET', '/api/v1/tickets/viewer', { bearer: idToken })).body).toEqual({
      totalQuantity: 0,
    })
    await emulator.sendCode({ requestType: 'VERIFY_EMAIL', idToken })
    await emulator.applyCode((await emulator.codeFor(email, 'VERIFY_EMAIL')).oobCode)
    const verified = (await emulator.signIn(email, password)).idToken
    expect((await call('GET', '/api/v1/tickets/viewer', { bearer: verified })).body).toEqual({
      totalQuantity: 1,
    })
  })

  it('keeps keys in the account: the first with the free pack, named, revealed on another device, revoked', async () => {
    const { idToken, email } = await signedUp()
    const laptop = await sessionOf(idToken)
    const first = await call('POST', '/api/v1/account/keys', {
      ...withCookie(laptop.cookie),
      json: { name: 'laptop', captcha: await solvedCaptcha('new_key') },
    })
    expect(first.status).toBe(200)
    expect(first.body.key).toMatchObject({ name: 'laptop', balance: 10_000_000, can_reveal: true })
    const second = await call('POST', '/api/v1/account/keys', {
      ...withCookie(laptop.cookie),
      json: { name: 'ci', captcha: await solvedCaptcha('new_key') },
    })
    expect(second.body.key).toMatchObject({ name: 'ci', balance: 0 })
    // Only hashes and sealed copies are stored, never the key itself.
    const stored = await scalar(
      database.db,
      sql`select count(*) from api_keys where key_ciphertext like ${'%' + first.body.api_key + '%'}`,
    )
    expect(stored).toBe(0)

    const phone = await sessionOf((await emulator.signIn(email, password)).idToken)
    const listed = await call('GET', '/api/v1/account/keys', withCookie(phone.cookie))
    expect(listed.body.keys.map((k: { name: string }) => k.name)).toEqual(['laptop', 'ci'])
    const revealed = await call(
      'POST',
      `/api/v1/account/keys/${first.body.key.key_id}/reveal`,
      withCookie(phone.cookie),
    )
    expect(revealed.body.api_key).toBe(first.body.api_key)

    const renamed = await call('PATCH', `/api/v1/account/keys/${second.body.key.key_id}`, {
      ...withCookie(phone.cookie),
      json: { name: 'build server' },
    })
    expect(renamed.body.name).toBe('build server')
    const revoked = await call('DELETE', `/api/v1/account/keys/${second.body.key.key_id}`, withCookie(phone.cookie))
    expect(revoked.status).toBe(200)
    const info = await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: second.body.api_key } })
    expect(info.status).toBe(401)

    // Another account can neither see, reveal, rename nor revoke them.
    const stranger = await sessionOf((await signedUp()).idToken)
    for (const [method, path] of [
      ['POST', `/api/v1/account/keys/${first.body.key.key_id}/reveal`],
      ['DELETE', `/api/v1/account/keys/${first.body.key.key_id}`],
    ] as const) {
      const refused = await call(method, path, withCookie(stranger.cookie))
      expect(refused.status).toBe(404)
    }
    expect((await call('GET', '/api/v1/account/keys', withCookie(stranger.cookie))).body.keys).toEqual([])
    const notAnId = await call(
      'POST',
      `/api/v1/account/keys/${encodeURIComponent("1' or '1'='1")}/reveal`,
      withCookie(stranger.cookie),
    )
    expect(notAnId.status).toBe(404)
  })

  it('claims a trial key got before sign-in, once, with a captcha; paid status then covers the account', async () => {
    const trial = await call('POST', '/api/v1/api_key/trial', {
      form: { captcha: await solvedCaptcha('new_key') },
      address: '198.51.100.20',
    })
    const anonymousKey: string = trial.body.api_key
    const owner = await sessionOf((await signedUp()).idToken)
    const noCaptcha = await call('POST', '/api/v1/account/keys/claim', {
      ...withCookie(owner.cookie),
      json: { api_key: anonymousKey, captcha: 'x' },
    })
    expect(noCaptcha.status).toBe(400)
    const claimed = await call('POST', '/api/v1/account/keys/claim', {
      ...withCookie(owner.cookie),
      json: { api_key: anonymousKey, captcha: await solvedCaptcha('claim_key'), name: 'my laptop' },
    })
    // The name its browser gave the trial key comes along.
    expect(claimed.body).toMatchObject({ balance: 10_000_000, can_reveal: true, name: 'my laptop' })
    // The anonymous holder's copy keeps working: the key moved, it did not change.
    const info = await call('GET', '/api/v1/api_key/fe_user', { query: { api_key: anonymousKey } })
    expect(info.body.wallet.total_balance).toBe(10_000_000)

    const thief = await sessionOf((await signedUp()).idToken)
    const stolen = await call('POST', '/api/v1/account/keys/claim', {
      ...withCookie(thief.cookie),
      json: { api_key: anonymousKey, captcha: await solvedCaptcha('claim_key') },
    })
    expect(stolen).toMatchObject({ status: 403, body: { detail: 'This API key belongs to another account' } })

    // A purchase made the claimed key paid; a key the account makes later is paid too (spec §6 follows the account).
    await database.db.execute(
      sql`update api_keys set email = 'payer@example.com', speed_level = 2 where id = ${claimed.body.key_id}`,
    )
    const later = await call('POST', '/api/v1/account/keys', {
      ...withCookie(owner.cookie),
      json: { captcha: await solvedCaptcha('new_key') },
    })
    expect(later.body.key.balance).toBe(0)
    const laterInfo = await call('GET', '/api/v1/api_key/fe_user', {
      query: { api_key: later.body.api_key },
    })
    expect(laterInfo.body).toMatchObject({ email: 'payer@example.com', metadata: { speed_level: 2 } })
  })
})
