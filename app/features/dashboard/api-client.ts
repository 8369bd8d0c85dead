import type {
  BalanceNotification,
  CaptchaChallenge,
  ConsumptionTotals,
  KeyInfo,
  ModelRecord,
  TransactionPage,
  TransferResult,
} from './api-types'

const base = '/api/v1'

/** A failed dashboard request; `message` is spec §8's `"<status>: <detail or status text>"`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(`${status}: ${detail}`)
    this.name = 'ApiError'
  }
}

/** The readable part of a `{detail}` body: a string, or the messages of a 422 validation list. */
export function detailText(body: unknown): string | undefined {
  if (!body || typeof body !== 'object' || !('detail' in body)) return undefined
  const { detail } = body as { detail: unknown }
  if (typeof detail === 'string') return detail || undefined
  if (Array.isArray(detail)) {
    const messages = detail.map((item) => (item && typeof item === 'object' && 'msg' in item ? String(item.msg) : String(item)))
    return messages.join('; ') || undefined
  }
  return detail == null ? undefined : JSON.stringify(detail)
}

/** Builds the error for a non-2xx response; falls back to the status text when the body has no detail. */
export async function errorFromResponse(response: Response): Promise<ApiError> {
  let body: unknown
  try {
    body = await response.json()
  } catch {
    body = undefined
  }
  const statusText = response.statusText || 'Request failed'
  return new ApiError(response.status, detailText(body) ?? statusText)
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'DELETE'
  apiKey?: string
  query?: Record<string, string | number | boolean | string[] | undefined>
  form?: Record<string, string>
  json?: unknown
  signal?: AbortSignal
}

export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value === undefined) continue
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item))
  }
  const headers = new Headers({ accept: 'application/json' })
  if (options.apiKey) headers.set('authorization', `Bearer ${options.apiKey}`)
  let body: BodyInit | undefined
  if (options.form) body = new URLSearchParams(options.form)
  else if (options.json !== undefined) {
    headers.set('content-type', 'application/json')
    body = JSON.stringify(options.json)
  }
  const search = params.size ? `?${params}` : ''
  let response: Response
  try {
    response = await fetch(`${base}${path}${search}`, { method: options.method ?? 'GET', headers, body, signal: options.signal, credentials: 'same-origin' })
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error
    throw new ApiError(0, error instanceof Error ? error.message : 'Network error')
  }
  if (!response.ok) throw await errorFromResponse(response)
  if (response.status === 204) return undefined as T
  const text = await response.text()
  return (text ? JSON.parse(text) : undefined) as T
}

export const api = {
  captchaChallenge: (signal?: AbortSignal) => apiRequest<CaptchaChallenge>('/captcha/challenge', { signal }),
  trialKey: (captcha: string) => apiRequest<{ api_key: string }>('/api_key/trial', { method: 'POST', form: { captcha } }),
  emptyKey: (captcha: string) => apiRequest<{ api_key: string }>('/api_key/empty', { method: 'POST', form: { captcha } }),
  /** Spec §7 sends the key in the query here; this is the one call that does. */
  keyInfo: (apiKey: string, signal?: AbortSignal) => apiRequest<KeyInfo>('/api_key/fe_user', { query: { api_key: apiKey }, signal }),
  revokeKey: (apiKey: string, captcha: string) => apiRequest<unknown>('/api_key', { method: 'DELETE', apiKey, form: { captcha } }),
  transactions: (apiKey: string, numRecords: number, cursor?: string, signal?: AbortSignal) =>
    apiRequest<TransactionPage>('/billing/paginated_transaction', { apiKey, query: { num_records: numRecords, cursor }, signal }),
  totalConsumption: (apiKey: string, range: { start: string; end: string }, signal?: AbortSignal) =>
    apiRequest<ConsumptionTotals>('/billing/total_consumption', { apiKey, query: range, signal }),
  transferBalance: (apiKey: string, receiverKey: string, captcha: string) =>
    apiRequest<TransferResult>('/billing/transfer_balance', {
      method: 'POST',
      apiKey,
      query: { receiver_key: receiverKey, revoke_sender_key: true },
      form: { captcha },
    }),
  balanceNotification: (apiKey: string, signal?: AbortSignal) => apiRequest<BalanceNotification>('/billing/balance_notification', { apiKey, signal }),
  setBalanceNotification: (apiKey: string, body: { thresholds: number[]; email: string }) =>
    apiRequest<BalanceNotification>('/billing/balance_notification', { method: 'POST', apiKey, json: body }),
  deleteBalanceNotification: (apiKey: string) => apiRequest<unknown>('/billing/balance_notification', { method: 'DELETE', apiKey }),
  models: (tags: string[], signal?: AbortSignal) => apiRequest<ModelRecord[] | { data: ModelRecord[] }>('/models', { query: { tag: tags }, signal }),
}
