import type { InputIssue, Refusal } from '../domain/refusals'
import type { PublicAnswer } from './refusal-answers'

/**
 * OpenAI's error object, which its SDKs (and the clients built on them) read into `err.type`, `err.code`,
 * `err.param` and `err.message`. Every /v1 refusal carries it beside `detail` (content/docs/errors.md).
 */
export interface OpenAiError {
  message: string
  type: string
  code: string | null
  param: string | null
}

/** The `type` of a status, as OpenAI names its families of errors. */
function typeOf(status: number): string {
  if (status === 401) return 'authentication_error'
  if (status === 402) return 'insufficient_quota'
  if (status === 403) return 'permission_error'
  if (status === 404) return 'not_found_error'
  if (status === 409) return 'conflict_error'
  if (status === 429) return 'rate_limit_error'
  if (status >= 500) return 'server_error'
  return 'invalid_request_error'
}

/** The `code` of a refusal where OpenAI has a name for it; other refusals get their kind in snake case. */
const codes: Partial<Record<Refusal['kind'], string>> = {
  MissingKey: 'invalid_api_key',
  UnknownKey: 'invalid_api_key',
  KeyRevoked: 'invalid_api_key',
  KeyExpired: 'invalid_api_key',
  InsufficientBalance: 'insufficient_quota',
  SpendCapReached: 'insufficient_quota',
  SpendLimitReached: 'insufficient_quota',
  RateLimited: 'rate_limit_exceeded',
  BrowserTimeSpent: 'rate_limit_exceeded',
  ModelNotFound: 'model_not_found',
  InvalidInput: 'invalid_value',
  DatabaseUnavailable: 'service_unavailable',
}

/** An HTTP refusal's code, by its status. */
const statusCodes: Record<number, string> = {
  400: 'invalid_request',
  403: 'forbidden',
  404: 'unknown_url',
  405: 'method_not_allowed',
  413: 'request_too_large',
  415: 'unsupported_media_type',
  422: 'invalid_value',
  500: 'internal_error',
  502: 'upstream_error',
  503: 'service_unavailable',
}

const snakeCase = (kind: string) => kind.replace(/(?<!^)([A-Z])/g, '_$1').toLowerCase()

/** Where an issue sits, as OpenAI's `param` names it: `input`, `input[3]`, `messages[0].content`. */
function paramOf(issue: InputIssue): string | null {
  const [, ...path] = issue.loc
  const param = path.reduce<string>(
    (text, part) => (typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part),
    '',
  )
  return param || null
}

/** One readable sentence for a list of issues: `input: must hold at most 2048 inputs (the limit per request)`. */
function messageOf(issues: InputIssue[]): string {
  return issues.map((issue) => `${paramOf(issue) ?? issue.loc.join('.')}: ${issue.msg}`).join('; ')
}

/** The OpenAI error object of a refusal's public answer (`refusal` names its kind; an HTTP refusal has none). */
export function openAiError(answer: PublicAnswer & { refusal?: string }): OpenAiError {
  const issues = typeof answer.detail === 'string' ? undefined : answer.detail
  const code =
    (answer.refusal && (codes[answer.refusal as Refusal['kind']] ?? snakeCase(answer.refusal))) ??
    (issues ? 'invalid_value' : (statusCodes[answer.status] ?? null))
  return {
    message: issues ? messageOf(issues) : (answer.detail as string),
    type: typeOf(answer.status),
    code,
    param: issues?.[0] ? paramOf(issues[0]) : null,
  }
}

/** The paths whose refusals carry OpenAI's error object: the OpenAI-shaped search APIs, new ones included. */
export const isOpenAiPath = (pathname: string | undefined) => pathname !== undefined && /^\/v1(\/|$)/.test(pathname)
