import { invalidThresholdsMessage } from '~/lib/balance-notification-schema'
import type { InputIssue, KeyOutOfScope, PageProblem, Refusal } from '../domain/refusals'
import { nodeCapabilities } from '../node-capabilities'

/** A request limit's state as the headers clients of rate-limited APIs read. `Reset` is in seconds from now. */
export function rateLimitHeaders(state: { limit: number; remaining: number; resetSeconds: number }) {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(state.resetSeconds),
  }
}

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
}

const identityCodeStatus: Record<string, number> = {
  'too-many-requests': 429,
  'network-request-failed': 502,
  'internal-error': 502,
  'user-disabled': 403,
}

type Answers = { [K in Refusal['kind']]: PublicAnswer | ((refusal: Extract<Refusal, { kind: K }>) => PublicAnswer) }

/** Unknown, revoked and missing keys read the same, so an answer never tells whether a key exists. */
const keyNotAccepted: PublicAnswer = { status: 401, detail: 'Invalid or missing API key' }

/**
 * The one table from refusal to answer, for REST routes and server functions alike. Typed so that a new
 * refusal cannot be thrown before it has an answer here.
 */
const answers: Answers = {
  MissingKey: keyNotAccepted,
  UnknownKey: keyNotAccepted,
  KeyRevoked: keyNotAccepted,
  ServiceTokenRejected: { status: 401, detail: 'Invalid service token' },
  InsufficientBalance: { status: 402, detail: 'Insufficient balance' },
  // Per-key controls: the caller holds the key, so naming its owner's settings tells it nothing new.
  SpendCapReached: (refusal) => ({
    status: 402,
    detail: `This API key's ${refusal.period === 'day' ? 'daily' : 'monthly'} spending cap of ${tokenCount(refusal.cap)} tokens is reached; it resets at ${refusal.resetsAt.toISOString()}`,
    headers: { 'Retry-After': String(Math.max(1, Math.ceil((refusal.resetsAt.getTime() - Date.now()) / 1000))) },
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
  ModelNotFound: { status: 404, detail: 'Model not found' },
  RequestIdReused: {
    status: 409,
    detail:
      'This X-Request-Id was already used by a request of this key, which was charged and answered; send a new X-Request-Id to run the request again',
  },
  EventOfAnotherKey: { status: 409, detail: 'This event was already recorded for another key' },
  InvalidAmount: { status: 400, detail: 'tokens must be a positive whole number' },
  UnstorableText: { status: 400, detail: 'Text must not contain NUL characters' },
  SameKeyTransfer: { status: 400, detail: 'Cannot transfer balance to the same key' },
  NothingToTransfer: { status: 400, detail: 'The sender key has no balance to transfer' },
  InvalidThresholds: { status: 400, detail: invalidThresholdsMessage },
  CaptchaRejected: { status: 400, detail: 'Captcha verification failed' },
  RateLimited: (refusal) => ({
    status: 429,
    detail: 'Rate limit exceeded, try again later',
    headers: {
      'Retry-After': String(Math.max(1, Math.ceil(refusal.retryAfterSeconds))),
      ...(refusal.quota ? rateLimitHeaders({ ...refusal.quota, remaining: 0 }) : {}),
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
  BulkJobNotFound: { status: 404, detail: 'Bulk job not found' },
  BulkJobState: (refusal) => ({ status: 409, detail: refusal.detail }),
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
  SignInRequired: { status: 401, detail: 'Sign in to continue' },
  RecentSignInRequired: { status: 401, detail: 'auth/requires-recent-login' },
  KeyOwnedElsewhere: { status: 403, detail: 'This API key belongs to another account' },
  KeyNotRevealable: {
    status: 409,
    detail: 'This key cannot be shown again; create a new key and move the balance to it',
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
