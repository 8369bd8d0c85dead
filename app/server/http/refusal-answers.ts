import { periodAdjective, spendLimitText } from '~/contracts/spend-limits'
import { invalidThresholdsMessage } from '~/lib/balance-notification-schema'
import type { InputIssue, KeyOutOfScope, PageProblem, Refusal } from '../domain/refusals'
import { nodeCapabilities } from '../node-capabilities'
import { rateLimitHeaders, tokenRateLimitHeaders } from './rate-limit-headers'

/** What a caller reads when refused: the status, the public `{detail}` and any headers. */
export interface PublicAnswer {
  status: number
  detail: string | InputIssue[]
  headers?: Record<string, string>
}

/** A page the reader may not fetch is forbidden; one it could not reach or time out on is the gateway's failure. */
const pageProblemStatus: Record<PageProblem, number> = {
  url: 422,
  scheme: 422,
  address: 403,
  redirects: 422,
  unreachable: 502,
  timeout: 504,
  'too-large': 422,
  'too-complex': 422,
  'convert-timeout': 504,
  'content-type': 422,
  status: 422,
  selector: 422,
  'no-browser': 501,
  browser: 502,
  robots: 403,
  option: 422,
  budget: 409,
}

const identityCodeStatus: Record<string, number> = {
  'too-many-requests': 429,
  'network-request-failed': 502,
  'internal-error': 502,
  'user-disabled': 403,
}

type Answers = { [K in Refusal['kind']]: PublicAnswer | ((refusal: Extract<Refusal, { kind: K }>) => PublicAnswer) }

/** Unknown and missing keys read the same, so an answer never tells whether a key exists. */
const keyNotAccepted: PublicAnswer = { status: 401, detail: 'Invalid or missing API key' }
/**
 * A revoked key says so: only a caller holding the whole key (its hash matched) reads it, and that caller knew
 * the key existed; what it learns is why it stopped working, not that some key exists.
 */
const keyRevoked: PublicAnswer = { status: 401, detail: 'This API key was revoked' }

/**
 * The one table from refusal to answer, for REST routes and server functions alike. Typed so that a new
 * refusal cannot be thrown before it has an answer here.
 */
const answers: Answers = {
  MissingKey: keyNotAccepted,
  UnknownKey: keyNotAccepted,
  KeyRevoked: keyRevoked,
  ServiceTokenRejected: { status: 401, detail: 'Invalid service token' },
  InsufficientBalance: { status: 402, detail: 'Insufficient balance' },
  // Per-key controls: the caller holds the key, so naming its owner's settings tells it nothing new.
  SpendCapReached: (refusal) => ({
    status: 402,
    detail: `This API key's ${refusal.period === 'day' ? 'daily' : 'monthly'} spending cap of ${tokenCount(refusal.cap)} tokens is reached; it resets at ${refusal.resetsAt.toISOString()}`,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((refusal.resetsAt.getTime() - Date.now()) / 1000))) },
  }),
  SpendLimitReached: ({ limit }) => ({
    status: 402,
    detail: `This API key's ${periodAdjective(limit.period)} spend limit of ${spendLimitText(limit.unit, limit.amount)} is reached; it resets at ${limit.resetsAt.toISOString()}`,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((limit.resetsAt.getTime() - Date.now()) / 1000))) },
  }),
  KeyExpired: (refusal) => ({
    status: 401,
    detail: refusal.expiresAt
      ? `This API key expired at ${refusal.expiresAt.toISOString()}`
      : 'This API key has expired',
  }),
  KeyOutOfScope: (refusal) => ({ status: 403, detail: outOfScopeDetail(refusal) }),
  AddressNotAllowed: (refusal) => ({
    status: 403,
    detail: `This API key may not be used from ${refusal.address}; it is allowed from ${refusal.allowed.join(', ')}`,
  }),
  KeyIdNotFound: { status: 404, detail: 'API key not found' },
  ReceiverNotFound: { status: 404, detail: 'Receiver key not found' },
  TransactionNotFound: { status: 404, detail: 'Transaction not found' },
  SpendLimitNotFound: { status: 404, detail: 'Spend limit not found' },
  ModelNotFound: { status: 404, detail: 'Model not found' },
  RequestIdReused: {
    status: 409,
    detail:
      'This X-Request-Id was already used by a request of this key, which was charged and answered; send a new X-Request-Id to run the request again',
  },
  IdempotencyKeyMismatch: {
    status: 422,
    detail:
      'This Idempotency-Key was already used by this API key within 24 hours for another request (another method, path, option header or body); send a new Idempotency-Key for a different request',
  },
  IdempotencyKeyInFlight: {
    status: 409,
    detail:
      'A request with this Idempotency-Key is still being answered; retry once it is, and its answer will be replayed',
    // Clients that retry a 409 (OpenAI's SDKs do) come back for the replay.
    headers: { 'Retry-After': '1' },
  },
  EventOfAnotherKey: { status: 409, detail: 'This event was already recorded for another key' },
  InvalidAmount: { status: 400, detail: 'tokens must be a positive whole number' },
  UnstorableText: { status: 400, detail: 'Text must not contain NUL characters' },
  SameKeyTransfer: { status: 400, detail: 'Cannot transfer balance to the same key' },
  NothingToTransfer: { status: 400, detail: 'The sender key has no balance to transfer' },
  // A transfer is a spend of the whole balance: what the sender's controls forbid it to spend, it may not move.
  TransferPastCap: (refusal) => ({
    status: 403,
    detail: `This API key's ${refusal.period === 'day' ? 'daily' : 'monthly'} spending cap of ${tokenCount(refusal.cap)} tokens leaves ${tokenCount(refusal.left)} tokens until ${refusal.resetsAt.toISOString()}; a transfer moves the whole balance of ${tokenCount(refusal.amount)} tokens, so it is refused while the cap leaves less (its owner can raise or remove the cap)`,
  }),
  TransferPastSpendLimit: ({ limit, amount }) => ({
    status: 403,
    detail: `This API key's ${periodAdjective(limit.period)} spend limit of ${spendLimitText(limit.unit, limit.amount)} leaves ${tokenCount(Math.max(0, limit.allowed - limit.used))} tokens until ${limit.resetsAt.toISOString()}; a transfer moves the whole balance of ${tokenCount(amount)} tokens, so it is refused while the limit leaves less (its owner can raise or remove the limit)`,
  }),
  TransferOfScopedKey: ({ allowed }) => ({
    status: 403,
    detail: `This API key may be spent only on ${[
      allowed.products && `products: ${allowed.products.join(', ') || 'none'}`,
      allowed.models && `models: ${allowed.models.join(', ') || 'none'}`,
    ]
      .filter(Boolean)
      .join(
        '; ',
      )}; a transfer would move its balance to a key without those limits, so it is refused while they are set`,
  }),
  InvalidThresholds: { status: 400, detail: invalidThresholdsMessage },
  CaptchaRejected: { status: 400, detail: 'Captcha verification failed' },
  RateLimited: (refusal) => ({
    status: 429,
    detail: 'Rate limit exceeded, try again later',
    headers: {
      'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterSeconds))),
      ...(refusal.quota && (refusal.of === 'tokens' ? tokenRateLimitHeaders : rateLimitHeaders)(refusal.quota)),
    },
  }),
  // A dropped connection is back within a second (the pool reconnects at once); a database that is down answers fast.
  DatabaseUnavailable: {
    status: 503,
    detail: 'Service temporarily unavailable, try again shortly',
    headers: { 'Retry-After': '1' },
  },
  InvalidInput: (refusal) => ({ status: 422, detail: refusal.issues }),
  ClassifierNotFound: { status: 404, detail: 'Classifier not found' },
  ClassifierChanged: {
    status: 409,
    detail: 'The classifier was trained by another request meanwhile; send this training again',
  },
  PageNotRead: (refusal) => ({ status: pageProblemStatus[refusal.problem], detail: refusal.detail }),
  NoSearchResults: (refusal) => ({ status: 422, detail: `No search results available for query ${refusal.query}` }),
  BrowserTimeSpent: (refusal) => ({
    status: 429,
    detail:
      refusal.reason === 'waiting'
        ? 'Too many of your browser reads are waiting for the browser engine; send more once they are answered'
        : `The browser engine's time for your key or address is used up (${refusal.budgetSeconds} s a minute); try again in ${Math.max(1, Math.ceil(refusal.retryAfterSeconds))} s`,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterSeconds))) },
  }),
  BulkJobNotFound: { status: 404, detail: 'Bulk job not found' },
  BulkJobState: (refusal) => ({ status: 409, detail: refusal.detail }),
  BatchObjectNotFound: (refusal) => ({
    status: 404,
    detail: refusal.what === 'file' ? 'File not found' : 'Batch not found',
  }),
  StoredObjectMissing: {
    status: 410,
    detail: "The job's result file is no longer stored: upload the texts again to compute it anew",
  },
  DownloadLinkRefused: (refusal) => ({
    status: 403,
    detail:
      refusal.reason === 'expired'
        ? 'This download link has expired: ask for a new one'
        : 'This download link is not valid',
  }),
  InsufficientStorage: {
    status: 507,
    detail:
      'Insufficient storage: the server has no room to store this now; nothing was kept or charged, try again later',
  },
  UploadTooLarge: (refusal) => ({
    status: 413,
    detail: `The file is larger than the limit of ${refusal.limitBytes / 1024 / 1024} MiB`,
    headers: { Connection: 'close' },
  }),
  PaymentSignatureInvalid: { status: 400, detail: 'Invalid payment event signature' },
  PaymentEventMalformed: (refusal) => ({ status: 400, detail: `Malformed payment event: ${refusal.problem}` }),
  PurchaseNotFound: { status: 404, detail: 'Purchase not found' },
  AutoRechargeRefused: (refusal) => ({ status: 409, detail: refusal.detail }),
  PaymentServiceFailed: {
    status: 502,
    detail: 'The payment service could not be reached; nothing was charged. Try again shortly',
  },
  PaymentsUnavailable: {
    status: 501,
    detail: 'Payments are not set up on this server, so nothing can be bought here',
  },
  // `auth/<code>` lets the dashboard show the identity service's own error in the visitor's language.
  IdentityRefused: (refusal) =>
    refusal.code
      ? { status: identityCodeStatus[refusal.code] ?? 400, detail: `auth/${refusal.code}` }
      : { status: 401, detail: 'Invalid or expired identity token' },
  WebhookNotFound: (refusal) => ({
    status: 404,
    detail: refusal.what === 'delivery' ? 'Webhook delivery not found' : 'Webhook endpoint not found',
  }),
  WebhookUrlRefused: (refusal) => ({ status: 422, detail: refusal.detail }),
  WebhookState: (refusal) => ({ status: 409, detail: refusal.detail }),
  SignInRequired: { status: 401, detail: 'Sign in to continue' },
  RecentSignInRequired: { status: 401, detail: 'auth/requires-recent-login' },
  KeyOwnedElsewhere: { status: 403, detail: 'This API key belongs to another account' },
  KeyNotRevealable: {
    status: 409,
    detail: 'This key cannot be shown again; create a new key and move the balance to it',
  },
  OrganisationNotFound: { status: 404, detail: 'Organisation not found' },
  NotPermitted: (refusal) => ({
    status: 403,
    detail: `Your role in this organisation (${refusal.role}) does not allow this`,
  }),
  OrganisationRefused: (refusal) => ({ status: 409, detail: refusal.detail }),
  OrganisationItemNotFound: (refusal) => ({
    status: 404,
    detail: `${refusal.what.charAt(0).toUpperCase()}${refusal.what.slice(1)} not found`,
  }),
  InvitationRefused: (refusal) => ({ status: 409, detail: refusal.detail }),
  SharedBalanceKey: {
    status: 409,
    detail:
      "This key spends its organisation's shared balance: its purchases, auto-recharge, alerts and billing details are the organisation's (an owner, admin or billing member sets them)",
  },
  PasswordPolicyUnmet: (refusal) => ({
    status: 400,
    detail: `auth/password-does-not-meet-requirements: ${refusal.unmet.join(', ')}`,
  }),
  NeedsNode: (refusal) => {
    const { label, variable } = nodeCapabilities[refusal.capability]
    return { status: 501, detail: `This edge deployment has no Node backend for ${label} (${variable})` }
  },
  EngineRefused: (refusal) => ({
    status: refusal.status,
    detail: refusal.detail,
    ...(refusal.retryAfterSeconds !== undefined
      ? { headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterSeconds))) } }
      : {}),
  }),
}

const tokenCount = (n: number) => n.toLocaleString('en-US')

function outOfScopeDetail({ asked, allowed }: KeyOutOfScope): string {
  const what = [asked.product, asked.model && `model ${asked.model}`].filter(Boolean).join(' with ')
  const named = [
    allowed?.products && `products: ${allowed.products.join(', ') || 'none'}`,
    allowed?.models && `models: ${allowed.models.join(', ') || 'none'}`,
  ].filter(Boolean)
  return `This API key may not be used for ${what || 'this request'}${named.length ? `; it is allowed ${named.join('; ')}` : ''}`
}

export function answerFor(refusal: Refusal): PublicAnswer {
  const answer = answers[refusal.kind] as PublicAnswer | ((refusal: Refusal) => PublicAnswer)
  return typeof answer === 'function' ? answer(refusal) : answer
}
