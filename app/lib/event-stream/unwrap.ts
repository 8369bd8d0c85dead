import { ApiError } from '../api-error'

/** Spec §8's messages for answers that are not what a call returns; both are `internal`. */
export const notJsonObject = 'Response is not valid JSON object.'
export const missingData = 'Response is missing data field.'

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function errorFrom(body: Record<string, unknown>, status: number): ApiError {
  const detail = body.detail ?? body.message ?? body.error
  const text = typeof detail === 'string' ? detail : detail === undefined ? 'Request failed' : JSON.stringify(detail)
  return new ApiError(typeof body.code === 'number' ? body.code : status, text)
}

/**
 * Spec §7's unwrapping of a JSON answer: a `result` field is the data; an `error` field is thrown; a body
 * without a numeric `code` is the data as it is; a `code` from 200 to 299 returns the body, any other code
 * throws it (as an ApiError whose status is that code).
 */
export function unwrap(body: unknown, status = 200): unknown {
  if (!isRecord(body)) throw new ApiError(status, notJsonObject, { code: 'internal' })
  if ('result' in body) return body.result
  if ('error' in body) {
    const error = body.error
    throw isRecord(error) ? errorFrom(error, status) : new ApiError(status, String(error))
  }
  if (typeof body.code !== 'number') return body
  if (body.code >= 200 && body.code <= 299) return body
  throw errorFrom(body, status)
}

/** A callable function's answer (`{data}` or `{result}`); anything else is spec §8's internal error. */
export function callableData(body: unknown, status = 200): unknown {
  if (!isRecord(body)) throw new ApiError(status, notJsonObject, { code: 'internal' })
  if ('result' in body) return body.result
  if ('data' in body) return body.data
  throw new ApiError(status, missingData, { code: 'internal' })
}
