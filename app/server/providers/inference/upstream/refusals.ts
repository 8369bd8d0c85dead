import { EngineRefused } from '../../../domain/refusals'

/**
 * An upstream API's failure in the words our caller reads. Their input problems (400, 422) are theirs to fix,
 * so the upstream's detail is passed on; everything else is our outage (502, 503, 504), told without the
 * upstream's internals and never with our key.
 */
export function refusalFor(status: number, body: string, headers: Headers): EngineRefused {
  if (status === 400 || status === 422)
    return new EngineRefused(422, detailOf(body) ?? 'Upstream API refused the input')
  if (status === 401 || status === 403) return new EngineRefused(502, 'Upstream API rejected our credentials')
  if (status === 402) return new EngineRefused(502, 'Upstream API account has no balance')
  if (status === 429)
    return new EngineRefused(503, 'Upstream API is rate limited, retry later', retryAfterSeconds(headers))
  return new EngineRefused(502, `Upstream API failed (status ${status})`)
}

/** Longest upstream detail passed on: enough for a validation message, not for a page of HTML. */
const maxDetailLength = 500

/**
 * The readable detail of an error body: `{detail: "…"}`, a validation list `{detail: [{loc, msg}]}`,
 * `{error: {message}}`, `{error: "…"}` or `{message}`; undefined for anything else.
 */
export function detailOf(body: string): string | undefined {
  let parsed: unknown
  try {
    parsed = JSON.parse(body)
  } catch {
    return undefined
  }
  const fields = asRecord(parsed)
  const error = asRecord(fields?.error)
  const detail = fields?.detail
  const text = Array.isArray(detail)
    ? detail.map(issueText).filter(Boolean).join('; ')
    : [detail, error?.message, fields?.error, fields?.message].find((value) => typeof value === 'string')
  return typeof text === 'string' && text.trim() ? text.trim().slice(0, maxDetailLength) : undefined
}

function issueText(issue: unknown): string {
  if (typeof issue === 'string') return issue
  const fields = asRecord(issue)
  const message =
    typeof fields?.msg === 'string' ? fields.msg : typeof fields?.message === 'string' ? fields.message : ''
  const where = Array.isArray(fields?.loc) ? fields.loc.join('.') : ''
  return where && message ? `${where}: ${message}` : message
}

/** Retry-After as seconds (RFC 9110: a number of seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim()
  if (!value) return undefined
  if (/^\d+$/.test(value)) return Number(value)
  const at = Date.parse(value)
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000))
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined
}
