/**
 * A failed dashboard call as the screens see it. Spec §8: its message reads "status: detail or status
 * text"; its `code` is the cloud-function code the spec's HTTP-status table gives that status.
 */
export type ErrorCode =
  | 'invalid-argument'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'aborted'
  | 'resource-exhausted'
  | 'cancelled'
  | 'internal'
  | 'unimplemented'
  | 'unavailable'
  | 'deadline-exceeded'
  | 'unknown'

const codeByStatus: Record<number, ErrorCode> = {
  0: 'internal',
  400: 'invalid-argument',
  401: 'unauthenticated',
  403: 'permission-denied',
  404: 'not-found',
  409: 'aborted',
  429: 'resource-exhausted',
  499: 'cancelled',
  500: 'internal',
  501: 'unimplemented',
  503: 'unavailable',
  504: 'deadline-exceeded',
}

export function codeForStatus(status: number): ErrorCode {
  return codeByStatus[status] ?? 'unknown'
}

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly retryAfter: string | null

  constructor(
    readonly status: number,
    readonly detail: string,
    options: {
      /** Where the status alone does not say it (spec §8: a malformed answer is `internal` whatever its status). */
      code?: ErrorCode
      /** The answer's Retry-After, for a caller that says when to try again. */
      retryAfter?: string | null
    } = {},
  ) {
    super(`${status}: ${detail}`)
    this.name = 'ApiError'
    this.code = options.code ?? codeForStatus(status)
    this.retryAfter = options.retryAfter ?? null
  }
}

/** The readable part of a `{detail}`: a string, or the messages of a 422 validation list. */
export function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail || undefined
  if (Array.isArray(detail)) {
    const messages = detail.map((item) =>
      item && typeof item === 'object' && 'msg' in item ? String(item.msg) : String(item),
    )
    return messages.join('; ') || undefined
  }
  return detail == null ? undefined : JSON.stringify(detail)
}

const statusTexts: Record<number, string> = { 0: 'Network error', 403: 'Forbidden', 413: 'Request body too large' }

/** A refused call's answer (`{detail}` with its status, or whatever a proxy sent), as an ApiError. */
export async function fromResponse(response: Response): Promise<ApiError> {
  let detail: string | undefined
  try {
    detail = detailText(((await response.clone().json()) as { detail?: unknown }).detail)
  } catch {
    detail = (await response.text().catch(() => '')).slice(0, 200) || undefined
  }
  return new ApiError(
    response.status,
    detail ?? (response.statusText || statusTexts[response.status] || 'Request failed'),
    { retryAfter: response.headers.get('retry-after') },
  )
}

/**
 * Whatever a failed call threw, as an ApiError: the refusal's answer, an error that carries a status,
 * or a network failure (status 0). An abort stays an abort, so TanStack Query can tell a cancelled
 * read from a failed one.
 */
export async function toApiError(error: unknown): Promise<unknown> {
  if (error instanceof ApiError) return error
  if (error instanceof DOMException && error.name === 'AbortError') return error
  if (error instanceof Response) return fromResponse(error)
  const { status, detail } = (error ?? {}) as { status?: unknown; detail?: unknown }
  if (typeof status === 'number')
    return new ApiError(status, detailText(detail) ?? statusTexts[status] ?? 'Request failed')
  return new ApiError(0, error instanceof Error ? error.message : statusTexts[0])
}
