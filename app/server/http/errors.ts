/**
 * One error type for everything the API refuses. `detail` is what the caller reads (short, safe);
 * `cause` is what the log keeps and never leaves the server.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    options?: { cause?: unknown; headers?: Record<string, string> },
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail), { cause: options?.cause })
    this.headers = options?.headers
  }
  readonly headers?: Record<string, string>
}

export const badRequest = (detail: unknown) => new HttpError(400, detail)
export const unauthorized = (detail = 'Invalid or missing API key') => new HttpError(401, detail)
export const paymentRequired = (detail = 'Insufficient balance') => new HttpError(402, detail)
export const forbidden = (detail = 'Forbidden') => new HttpError(403, detail)
export const notFound = (detail = 'Not found') => new HttpError(404, detail)
export const conflict = (detail: string) => new HttpError(409, detail)
export const unprocessable = (detail: unknown) => new HttpError(422, detail)
export const tooManyRequests = (retryAfterSeconds: number, detail = 'Too many requests') =>
  new HttpError(429, detail, { headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterSeconds))) } })

const encoder = new TextEncoder()

export function jsonResponse(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers)
  headers.set('content-type', 'application/json; charset=utf-8')
  headers.set('cache-control', headers.get('cache-control') ?? 'no-store')
  // A known length lets Node send the answer in one write instead of chunked (a second write for the end).
  const bytes = encoder.encode(JSON.stringify(body))
  headers.set('content-length', String(bytes.byteLength))
  return new Response(bytes, { ...init, headers })
}

/** Turns anything thrown by a handler into `{detail}` with the right status; unexpected errors are logged, not shown. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpError) return jsonResponse({ detail: error.detail }, { status: error.status, headers: error.headers })
  console.error('[api] unexpected error', error)
  return jsonResponse({ detail: 'Internal server error' }, { status: 500 })
}

/** Wraps a route handler so every failure leaves as `{detail}`. */
export function handle<C>(fn: (ctx: C) => Promise<Response> | Response): (ctx: C) => Promise<Response> {
  return async (ctx) => {
    try {
      return await fn(ctx)
    } catch (error) {
      return errorResponse(error)
    }
  }
}
