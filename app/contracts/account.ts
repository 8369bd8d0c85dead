/** Contracts of the account service (spec §7): the stored user, sessions, an account's keys, tickets. */
import * as v from 'valibot'
import { emptyAsNull, presentedKey, singleLine } from './common'

const photoUrl = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(2048),
  v.check((s) => s === '' || /^https:\/\/[^\s]+$/.test(s), 'must be an https:// address'),
)

/** Settings a user may keep on the account (spec §3 user settings, language): small, flat values only. */
const preferences = v.pipe(
  v.record(
    v.pipe(v.string(), v.maxLength(64), v.regex(/^[A-Za-z][\w-]*$/, 'must be a setting name')),
    v.union([v.boolean(), v.number(), v.null(), v.pipe(v.string(), v.maxLength(500))]),
  ),
  v.check((record) => Object.keys(record).length <= 32, 'must hold at most 32 settings'),
)

export const userInfoInput = v.object({
  displayName: v.optional(emptyAsNull(singleLine(100))),
  email: v.optional(v.nullable(v.string())),
  photoURL: v.optional(emptyAsNull(photoUrl)),
  preferences: v.optional(preferences),
})

export const profileInput = v.strictObject({
  displayName: v.optional(emptyAsNull(singleLine(100))),
  photoURL: v.optional(emptyAsNull(photoUrl)),
  notificationEmail: v.optional(
    emptyAsNull(
      v.pipe(
        v.string(),
        v.trim(),
        v.maxLength(254),
        v.check((s) => s === '' || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s), 'must be an e-mail address'),
      ),
    ),
  ),
  preferences: v.optional(preferences),
})

export const userAnswerSchema = v.object({
  uid: v.string(),
  displayName: v.nullable(v.string()),
  email: v.nullable(v.string()),
  photoURL: v.nullable(v.string()),
  preferences: v.record(v.string(), v.union([v.boolean(), v.number(), v.null(), v.string()])),
  notificationEmail: v.nullable(v.string()),
})

export const ticketsAnswer = v.object({ totalQuantity: v.number() })

export const accountKeySchema = v.object({
  key_id: v.string(),
  name: v.nullable(v.string()),
  key_display: v.string(),
  balance: v.number(),
  created_at: v.string(),
  revoked: v.boolean(),
  can_reveal: v.boolean(),
})
export const accountKeysAnswer = v.object({ keys: v.array(accountKeySchema) })

const keyName = emptyAsNull(singleLine(60))

export const createKeyInput = v.strictObject({
  name: v.optional(keyName),
  captcha: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(8192)),
})
export const claimKeyInput = v.strictObject({
  api_key: v.pipe(presentedKey, v.minLength(1, 'is required')),
  /** The name the browser gave the key; kept only when the key has none. */
  name: v.optional(keyName),
  captcha: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(8192)),
})
export const renameKeyInput = v.strictObject({ name: keyName })
export const keyIdParam = v.pipe(v.string(), v.uuid('must be a key id'))
export const revealedKeyAnswer = v.object({ api_key: v.string() })

export const signUpInput = v.strictObject({
  email: v.pipe(v.string(), v.trim(), v.maxLength(254), v.email('must be an e-mail address')),
  password: v.pipe(v.string(), v.maxLength(4096)),
})
export const resetPasswordInput = v.strictObject({
  oobCode: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(2048)),
  newPassword: v.pipe(v.string(), v.maxLength(4096)),
})

/** What the browser needs to start the identity SDK, and the policy it checks passwords with before sending them. */
export const authConfigAnswer = v.object({
  enabled: v.boolean(),
  apiKey: v.string(),
  authDomain: v.string(),
  projectId: v.string(),
  emulatorUrl: v.nullable(v.string()),
  providers: v.object({ google: v.boolean(), github: v.boolean() }),
  passwordPolicy: v.object({
    enforcement: v.picklist(['OFF', 'AUDIT', 'ENFORCE']),
    minLength: v.number(),
    maxLength: v.nullable(v.number()),
    require: v.array(v.picklist(['lower', 'upper', 'numeric', 'symbol'])),
  }),
})

export type UserAnswer = v.InferOutput<typeof userAnswerSchema>
export type AccountKey = v.InferOutput<typeof accountKeySchema>
export type AuthConfig = v.InferOutput<typeof authConfigAnswer>
export type PasswordPolicy = AuthConfig['passwordPolicy']
