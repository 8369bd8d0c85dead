/**
 * Everything a call can be refused with, as typed outcomes. The domain and the calls built on it throw
 * these and never speak HTTP; one table at the HTTP edge (`refusal-answers.ts`) gives each
 * its status and the `{detail}` the caller reads. A message here is for the log, never shown.
 */
import type { SpendLimitPeriod, SpendLimitUnit } from '~/contracts/spend-limits'
import type { NodeCapability } from '../node-capabilities'

abstract class BaseRefusal extends Error {
  abstract readonly kind: string
  constructor(message?: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** No key was presented. */
export class MissingKey extends BaseRefusal {
  readonly kind = 'MissingKey'
}

/** The presented key is not one of ours. */
export class UnknownKey extends BaseRefusal {
  readonly kind = 'UnknownKey'
}

/** The key was revoked (by its holder or by a transfer): it works nowhere any more. */
export class KeyRevoked extends BaseRefusal {
  readonly kind = 'KeyRevoked'
}

/** A ledger entry names a key id that does not exist. */
export class KeyIdNotFound extends BaseRefusal {
  readonly kind = 'KeyIdNotFound'
}

/** A debit would take the balance below zero. */
export class InsufficientBalance extends BaseRefusal {
  readonly kind = 'InsufficientBalance'
}

/** The key's owner set an expiry date (per-key controls) and it has passed. */
export class KeyExpired extends BaseRefusal {
  readonly kind = 'KeyExpired'
  constructor(readonly expiresAt?: Date) {
    super(expiresAt ? `expired at ${expiresAt.toISOString()}` : 'expired')
  }
}

/** The key may not be charged for this product or model (per-key controls): what was asked, and what is allowed when known. */
export class KeyOutOfScope extends BaseRefusal {
  readonly kind = 'KeyOutOfScope'
  constructor(
    readonly asked: { product?: string; model?: string },
    readonly allowed?: { products: string[] | null; models: string[] | null },
  ) {
    super(`${asked.product ?? '-'} ${asked.model ?? '-'}`)
  }
}

/** The request comes from an address outside the key's allowed ranges (per-key controls). */
export class AddressNotAllowed extends BaseRefusal {
  readonly kind = 'AddressNotAllowed'
  constructor(
    readonly address: string,
    readonly allowed: string[],
  ) {
    super(`address ${address}`)
  }
}

/**
 * A consumption would take the key past its spending cap for the UTC day or month (per-key controls).
 * The cap resets at the next UTC midnight, or the first of the next month.
 */
export class SpendCapReached extends BaseRefusal {
  readonly kind = 'SpendCapReached'
  readonly resetsAt: Date
  constructor(
    readonly period: 'day' | 'month',
    readonly cap: number,
    now = new Date(),
  ) {
    super(`${period} cap ${cap}`)
    this.resetsAt =
      period === 'day'
        ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1))
        : new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1))
  }
}

/** Which spend limit refused, as ledger_apply_v3 names it (app/server/db/functions/spend-limits.sql). */
export interface RefusingLimit {
  id: string
  unit: SpendLimitUnit
  /** Tokens, or dollars. */
  amount: number
  period: SpendLimitPeriod
  /** Tokens counted in the period, and the tokens the limit allows in it. */
  used: number
  allowed: number
  resetsAt: Date
}

/**
 * A consumption would take the key past one of its spend limits (tokens or dollars in a UTC day, week or
 * month): refused before any work, until the limit's period ends at `resetsAt`.
 */
export class SpendLimitReached extends BaseRefusal {
  readonly kind = 'SpendLimitReached'
  constructor(readonly limit: RefusingLimit) {
    super(`${limit.period} ${limit.unit} limit ${limit.amount} (${limit.used} of ${limit.allowed} tokens)`)
  }
}

/** A spend limit that is not one of this key's (unknown, removed, or another key's). */
export class SpendLimitNotFound extends BaseRefusal {
  readonly kind = 'SpendLimitNotFound'
}

/** A transfer would move more than a spend limit of the sending key leaves in its period (see TransferPastCap). */
export class TransferPastSpendLimit extends BaseRefusal {
  readonly kind = 'TransferPastSpendLimit'
  constructor(
    readonly limit: RefusingLimit,
    readonly amount: number,
  ) {
    super(`${limit.period} ${limit.unit} limit ${limit.amount}, transfer of ${amount}`)
  }
}

/**
 * A metered request came with an `X-Request-Id` this key already used for a request that was charged and
 * answered: it is refused before anything is computed, so a replayed id never buys a second answer.
 */
export class RequestIdReused extends BaseRefusal {
  readonly kind = 'RequestIdReused'
}

/**
 * An `Idempotency-Key` this API key already sent within the window with another request (another body, path or
 * option header): the stored answer is not that request's, so it is refused rather than replayed.
 */
export class IdempotencyKeyMismatch extends BaseRefusal {
  readonly kind = 'IdempotencyKeyMismatch'
}

/** An `Idempotency-Key` whose first request is still being answered: retry once it is (its answer is then replayed). */
export class IdempotencyKeyInFlight extends BaseRefusal {
  readonly kind = 'IdempotencyKeyInFlight'
}

/** The event behind an entry (usage event, payment) was already recorded for a different key. */
export class EventOfAnotherKey extends BaseRefusal {
  readonly kind = 'EventOfAnotherKey'
}

/** A ledger amount must be a positive whole number of tokens. */
export class InvalidAmount extends BaseRefusal {
  readonly kind = 'InvalidAmount'
}

/** Text the database cannot store (NUL characters). */
export class UnstorableText extends BaseRefusal {
  readonly kind = 'UnstorableText'
}

export class SameKeyTransfer extends BaseRefusal {
  readonly kind = 'SameKeyTransfer'
}

export class NothingToTransfer extends BaseRefusal {
  readonly kind = 'NothingToTransfer'
}

/**
 * A transfer would move more than the sending key's spending cap leaves in the UTC day or month: it moves the
 * whole balance to a key without that cap, so it is judged as a spend of all of it.
 */
export class TransferPastCap extends BaseRefusal {
  readonly kind = 'TransferPastCap'
  readonly resetsAt: Date
  constructor(
    readonly period: 'day' | 'month',
    readonly cap: number,
    readonly left: number,
    readonly amount: number,
  ) {
    super(`${period} cap ${cap}, ${left} left, transfer of ${amount}`)
    this.resetsAt = new SpendCapReached(period, cap).resetsAt
  }
}

/** A transfer from a key limited to some products or models: its tokens would reach a key without those limits. */
export class TransferOfScopedKey extends BaseRefusal {
  readonly kind = 'TransferOfScopedKey'
  constructor(readonly allowed: { products: string[] | null; models: string[] | null }) {
    super('scoped sender')
  }
}

/** The receiving key of a transfer is unknown or revoked. */
export class ReceiverNotFound extends BaseRefusal {
  readonly kind = 'ReceiverNotFound'
}

export class TransactionNotFound extends BaseRefusal {
  readonly kind = 'TransactionNotFound'
}

export class ModelNotFound extends BaseRefusal {
  readonly kind = 'ModelNotFound'
}

/** Spec §5: more than three thresholds, or not a list of token amounts. */
export class InvalidThresholds extends BaseRefusal {
  readonly kind = 'InvalidThresholds'
}

export class CaptchaRejected extends BaseRefusal {
  readonly kind = 'CaptchaRejected'
}

export class ServiceTokenRejected extends BaseRefusal {
  readonly kind = 'ServiceTokenRejected'
}

export class RateLimited extends BaseRefusal {
  readonly kind = 'RateLimited'
  /**
   * `quota`: where the limit that was hit stands, answered as `X-RateLimit-*` headers; `of` says whether it
   * counts requests or tokens (OpenAI's `x-ratelimit-*-requests` or `x-ratelimit-*-tokens`).
   */
  constructor(
    readonly retryAfterSeconds: number,
    readonly quota?: { limit: number; remaining: number; resetSeconds: number; resetMs: number },
    readonly of: 'requests' | 'tokens' = 'requests',
  ) {
    super(`retry after ${retryAfterSeconds} s`)
  }
}

/**
 * The database could not be reached, or dropped the connection mid-call (classified at the HTTP edge
 * from the driver's error, its `cause`). Nothing acknowledged was lost: the caller may retry.
 */
export class DatabaseUnavailable extends BaseRefusal {
  readonly kind = 'DatabaseUnavailable'
}

/**
 * An inference engine could not answer, in words the caller should read: an upstream API's refusal of the
 * input (422), its rate limit (429) or its outage (502, 503, 504).
 */
export class EngineRefused extends BaseRefusal {
  readonly kind = 'EngineRefused'
  constructor(
    readonly status: 422 | 429 | 502 | 503 | 504,
    readonly detail: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(`${status} ${detail}`)
  }
}

/** A trained classifier that is not there for this key (unknown, deleted, or another key's private one). */
export class ClassifierNotFound extends BaseRefusal {
  readonly kind = 'ClassifierNotFound'
}

/** A classifier was trained further by another request while this one trained it on the weights before. */
export class ClassifierChanged extends BaseRefusal {
  readonly kind = 'ClassifierChanged'
}

/** Why the reader could not read a page; each has its own status (see refusal-answers.ts). */
export type PageProblem =
  | 'url'
  | 'scheme'
  | 'address'
  | 'redirects'
  | 'unreachable'
  | 'timeout'
  | 'too-large'
  /** More elements, deeper nesting or more memory than the reader converts in bounded time. */
  | 'too-complex'
  /** Converting the page took longer than the reader's time limit per page. */
  | 'convert-timeout'
  | 'content-type'
  | 'status'
  | 'selector'
  /** The browser engine was asked for, and there is no Chromium on this server. */
  | 'no-browser'
  /** The browser engine failed while rendering the page. */
  | 'browser'
  /** The origin's robots.txt forbids the page to the user agent named. */
  | 'robots'
  /** An option this server does not offer (a model it has no upstream for, a proxy scheme it does not speak). */
  | 'option'
  /** The page would cost more tokens than the caller's budget (`X-Token-Budget`): 409, nothing charged. */
  | 'budget'

/**
 * The reader could not read the page it was given: a URL it may not fetch (a non-http(s) scheme, a
 * non-public address), one it could not reach or download within its limits, or content it cannot convert.
 * `detail` is what the caller reads; it never names the address a host resolved to.
 */
export class PageNotRead extends BaseRefusal {
  readonly kind = 'PageNotRead'
  constructor(
    readonly problem: PageProblem,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${problem}: ${detail}`, options)
  }
}

/** A web search (`/s`) found nothing to answer: 422, as the original's `No search results available for query …`. */
export class NoSearchResults extends BaseRefusal {
  readonly kind = 'NoSearchResults'
  constructor(readonly query: string) {
    super('no search results')
  }
}

/**
 * The browser engine's fair share for this caller (its key, or its address without one) is used: `time`, its
 * browser time per minute (`budgetSeconds`) is spent; `waiting`, too many of its reads already wait for a page.
 */
export class BrowserTimeSpent extends BaseRefusal {
  readonly kind = 'BrowserTimeSpent'
  constructor(
    readonly retryAfterSeconds: number,
    readonly budgetSeconds: number,
    readonly reason: 'time' | 'waiting' = 'time',
  ) {
    super(`${reason}: retry after ${retryAfterSeconds} s`)
  }
}

/** A bulk job that is not there for this key (unknown, or another key's). */
export class BulkJobNotFound extends BaseRefusal {
  readonly kind = 'BulkJobNotFound'
}

/** What was asked of a bulk job does not fit its state: cancel a finished one, retry one that did not fail, download before any row is done. */
export class BulkJobState extends BaseRefusal {
  readonly kind = 'BulkJobState'
  constructor(readonly detail: string) {
    super(detail)
  }
}

/** A file (/v1/files) or batch (/v1/batches) that is not there for this key (unknown, deleted, or another key's). */
export class BatchObjectNotFound extends BaseRefusal {
  readonly kind = 'BatchObjectNotFound'
  constructor(readonly what: 'file' | 'batch') {
    super(what)
  }
}

/**
 * A stored file the database names is not in the object store this instance reads: local storage on another
 * instance (several instances need S3 or one shared folder), or removed by hand.
 */
export class StoredObjectMissing extends BaseRefusal {
  readonly kind = 'StoredObjectMissing'
}

/** A bulk-job download link that was altered, or whose time is up. */
export class DownloadLinkRefused extends BaseRefusal {
  readonly kind = 'DownloadLinkRefused'
  constructor(readonly reason: 'invalid' | 'expired') {
    super(reason)
  }
}

/** An uploaded file over its size limit: the rest of it is never read. */
export class UploadTooLarge extends BaseRefusal {
  readonly kind = 'UploadTooLarge'
  constructor(readonly limitBytes: number) {
    super(`upload over ${limitBytes} bytes`)
  }
}

/**
 * The server's storage has no room for what it was asked to store (a full disk, a quota: ENOSPC, EDQUOT; an
 * S3-compatible store's 507): nothing of it was kept, and the same request may succeed once there is room.
 */
export class InsufficientStorage extends BaseRefusal {
  readonly kind = 'InsufficientStorage'
}

/** A payment webhook whose signature is missing, wrong or too old: nothing in it is believed. */
export class PaymentSignatureInvalid extends BaseRefusal {
  readonly kind = 'PaymentSignatureInvalid'
}

/**
 * A correctly signed payment event that is not an event we can act on (no id, no object, text Postgres cannot
 * store): refused, and recorded as failed under `record` so it never waits as pending.
 */
export class PaymentEventMalformed extends BaseRefusal {
  readonly kind = 'PaymentEventMalformed'
  constructor(
    readonly problem: string,
    readonly record: { id: string; type: string },
  ) {
    super(problem)
  }
}

/** A purchase that is not there for this key. */
export class PurchaseNotFound extends BaseRefusal {
  readonly kind = 'PurchaseNotFound'
}

/** Auto-recharge asked of a key that may not have it (not paid, no saved card) or in a state that does not fit. */
export class AutoRechargeRefused extends BaseRefusal {
  readonly kind = 'AutoRechargeRefused'
  constructor(readonly detail: string) {
    super(detail)
  }
}

/** No payment service is set up (no Stripe keys, and the sandbox not asked for): nothing can be bought. */
export class PaymentsUnavailable extends BaseRefusal {
  readonly kind = 'PaymentsUnavailable'
}

/** The payment service failed or could not be reached; nothing was bought. */
export class PaymentServiceFailed extends BaseRefusal {
  readonly kind = 'PaymentServiceFailed'
}

/**
 * The identity token was missing, forged, expired or for another project (`reason` is for the log only),
 * or the identity service refused a sign-up or reset: `code` is its error code (spec §8) when it gave one.
 */
export class IdentityRefused extends BaseRefusal {
  readonly kind = 'IdentityRefused'
  constructor(
    readonly reason: string,
    readonly code?: string,
  ) {
    super(reason)
  }
}

/** The call needs a signed-in session (the cookie), and there is none, or it ended. */
export class SignInRequired extends BaseRefusal {
  readonly kind = 'SignInRequired'
}

/** A session is started only from a recent sign-in, so a stolen old ID token cannot open one. */
export class RecentSignInRequired extends BaseRefusal {
  readonly kind = 'RecentSignInRequired'
}

/** The key belongs to another account (a claim), or is not one of this account's keys. */
export class KeyOwnedElsewhere extends BaseRefusal {
  readonly kind = 'KeyOwnedElsewhere'
}

/** An account key whose sealed copy is missing or no longer opens (KEY_ENCRYPTION_SECRET changed). */
export class KeyNotRevealable extends BaseRefusal {
  readonly kind = 'KeyNotRevealable'
}

/** No organisation by that id that the caller is in (another's, a deleted one, or none read the same). */
export class OrganisationNotFound extends BaseRefusal {
  readonly kind = 'OrganisationNotFound'
}

/** The caller's role in the organisation does not allow the action (`can(role, action)`). */
export class NotPermitted extends BaseRefusal {
  readonly kind = 'NotPermitted'
  constructor(
    readonly role: string,
    readonly action: string,
  ) {
    super(`${role} may not ${action}`)
  }
}

/** A change the organisation's state refuses (`detail` says why): its last owner, a personal organisation, … */
export class OrganisationRefused extends BaseRefusal {
  readonly kind = 'OrganisationRefused'
  constructor(readonly detail: string) {
    super(detail)
  }
}

/** No such member, project or invitation in the organisation. */
export class OrganisationItemNotFound extends BaseRefusal {
  readonly kind = 'OrganisationItemNotFound'
  constructor(readonly what: 'member' | 'project' | 'invitation') {
    super(what)
  }
}

/** An invitation that cannot be accepted: unknown, used, revoked, expired, or for another address. */
export class InvitationRefused extends BaseRefusal {
  readonly kind = 'InvitationRefused'
  constructor(readonly detail: string) {
    super(detail)
  }
}

/** A key-held billing change on a key that spends its organisation's shared balance: that is the organisation's. */
export class SharedBalanceKey extends BaseRefusal {
  readonly kind = 'SharedBalanceKey'
}

/** The password does not meet the configured policy (spec §5); `unmet` names the rules it failed. */
export class PasswordPolicyUnmet extends BaseRefusal {
  readonly kind = 'PasswordPolicyUnmet'
  constructor(readonly unmet: string[]) {
    super(`password policy: ${unmet.join(', ')}`)
  }
}

/**
 * Asked of an edge build for something only a Node instance does (the reader, the onnx engine, bulk jobs),
 * with no Node backend configured for it: see app/server/node-capabilities.ts.
 */
export class NeedsNode extends BaseRefusal {
  readonly kind = 'NeedsNode'
  constructor(readonly capability: NodeCapability) {
    super(`${capability} needs a Node backend`)
  }
}

/** No such webhook endpoint among the caller's (another owner's reads the same). */
export class WebhookNotFound extends BaseRefusal {
  readonly kind = 'WebhookNotFound'
  constructor(readonly what: 'endpoint' | 'delivery' = 'endpoint') {
    super(what)
  }
}

/** A webhook URL that may not be sent to: a non-public address (WEBHOOKS_ALLOW_PRIVATE_NETWORKS), or no address at all. */
export class WebhookUrlRefused extends BaseRefusal {
  readonly kind = 'WebhookUrlRefused'
  constructor(
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(detail, options)
  }
}

/** What the endpoint's state forbids: more endpoints than allowed, a test or replay to a disabled one. */
export class WebhookState extends BaseRefusal {
  readonly kind = 'WebhookState'
  constructor(readonly detail: string) {
    super(detail)
  }
}

/** One problem with a caller's input: where (`['body', 'email']`), what, and the kind of check. */
export interface InputIssue {
  loc: Array<string | number>
  msg: string
  type: string
}

export class InvalidInput extends BaseRefusal {
  readonly kind = 'InvalidInput'
  constructor(readonly issues: InputIssue[]) {
    super(issues.map((issue) => `${issue.loc.join('.')}: ${issue.type}`).join('; '))
  }
}

export type Refusal =
  | WebhookNotFound
  | WebhookUrlRefused
  | WebhookState
  | NoSearchResults
  | IdentityRefused
  | SignInRequired
  | RecentSignInRequired
  | KeyOwnedElsewhere
  | KeyNotRevealable
  | OrganisationNotFound
  | NotPermitted
  | OrganisationRefused
  | OrganisationItemNotFound
  | InvitationRefused
  | SharedBalanceKey
  | PasswordPolicyUnmet
  | MissingKey
  | UnknownKey
  | KeyRevoked
  | KeyIdNotFound
  | InsufficientBalance
  | KeyExpired
  | KeyOutOfScope
  | AddressNotAllowed
  | SpendCapReached
  | SpendLimitReached
  | TransferPastSpendLimit
  | SpendLimitNotFound
  | RequestIdReused
  | IdempotencyKeyMismatch
  | IdempotencyKeyInFlight
  | EventOfAnotherKey
  | InvalidAmount
  | UnstorableText
  | SameKeyTransfer
  | NothingToTransfer
  | TransferPastCap
  | TransferOfScopedKey
  | ReceiverNotFound
  | TransactionNotFound
  | ModelNotFound
  | InvalidThresholds
  | CaptchaRejected
  | ServiceTokenRejected
  | RateLimited
  | DatabaseUnavailable
  | InvalidInput
  | BatchObjectNotFound
  | EngineRefused
  | ClassifierNotFound
  | ClassifierChanged
  | PageNotRead
  | BrowserTimeSpent
  | PaymentSignatureInvalid
  | PaymentEventMalformed
  | PurchaseNotFound
  | AutoRechargeRefused
  | PaymentServiceFailed
  | PaymentsUnavailable
  | BulkJobNotFound
  | BulkJobState
  | UploadTooLarge
  | InsufficientStorage
  | DownloadLinkRefused
  | StoredObjectMissing
  | NeedsNode

export function isRefusal(error: unknown): error is Refusal {
  return error instanceof BaseRefusal
}
