/**
 * A refused or failed demo call as the visitor reads it: "status: detail", where a 422's list of
 * `{loc, msg}` becomes one sentence. 402 and 429 get their own kinds, so the screen can say what to do.
 */
export type DemoFailure =
  | { kind: 'exhausted'; message: string }
  | { kind: 'rate-limited'; message: string; retryAfterSeconds: number | undefined }
  | { kind: 'unauthorized'; message: string }
  | { kind: 'other'; message: string }

/** `['body', 'documents', 2]` → `documents[2]`: the request body is implied, indexes read as in code. */
function fieldPath(loc: unknown): string {
  if (!Array.isArray(loc)) return ''
  const parts = loc[0] === 'body' ? loc.slice(1) : loc
  return parts.reduce<string>(
    (path, part) => (typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${String(part)}` : String(part)),
    '',
  )
}

/** The readable part of `{detail}`: a string as it is, a validation list as "field msg; field msg." */
export function detailSentence(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail.trim() || undefined
  if (Array.isArray(detail)) {
    const clauses = detail
      .map((item) => {
        if (!item || typeof item !== 'object') return String(item)
        const { loc, msg } = item as { loc?: unknown; msg?: unknown }
        return [fieldPath(loc), typeof msg === 'string' ? msg : ''].filter(Boolean).join(' ')
      })
      .filter(Boolean)
    if (clauses.length === 0) return undefined
    const sentence = clauses.join('; ')
    return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
  }
  return undefined
}

/** Retry-After as whole seconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: number): number | undefined {
  if (!header) return undefined
  const value = header.trim()
  if (/^\d+$/.test(value)) return Number(value)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}

const statusTexts: Record<number, string> = {
  401: 'Unauthorized',
  402: 'Payment Required',
  413: 'Request body too large',
  422: 'Unprocessable request',
  429: 'Too many requests',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
}

export function failureOf(
  status: number,
  body: unknown,
  headers: { retryAfter: string | null },
  now = Date.now(),
): DemoFailure {
  const detail =
    detailSentence(body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined) ??
    (typeof body === 'string' && body.trim() ? body.trim().slice(0, 200) : undefined) ??
    statusTexts[status] ??
    'Request failed'
  const message = `${status}: ${detail}`
  if (status === 402) return { kind: 'exhausted', message }
  if (status === 429)
    return { kind: 'rate-limited', message, retryAfterSeconds: retryAfterSeconds(headers.retryAfter, now) }
  if (status === 401) return { kind: 'unauthorized', message }
  return { kind: 'other', message }
}
