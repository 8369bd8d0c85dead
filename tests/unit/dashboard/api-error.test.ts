import { describe, expect, it } from 'vitest'
import { ApiError, codeForStatus, detailText, toApiError } from '~/lib/api-error'

const json = (body: unknown, init: ResponseInit) =>
  new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json' } })

describe('a failed dashboard call', () => {
  it('reads as "status: detail" (spec §8) and carries the code of its status', async () => {
    const error = await toApiError({ status: 401, detail: 'Invalid or missing API key' })
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ message: '401: Invalid or missing API key', status: 401, code: 'unauthenticated' })
  })

  it('keeps the spec wording of a refused fourth threshold', async () => {
    const error = await toApiError({ status: 400, detail: 'Invalid thresholds: Must be array with max 3 values' })
    expect((error as ApiError).message).toBe('400: Invalid thresholds: Must be array with max 3 values')
    expect((error as ApiError).code).toBe('invalid-argument')
  })

  it('joins the messages of a 422 validation list', () => {
    const detail = [{ loc: ['body', 'email'], msg: 'Invalid email', type: 'value_error' }, { msg: 'Too many' }]
    expect(detailText(detail)).toBe('Invalid email; Too many')
  })

  it('reads a response refused before the function ran, falling back to the status text', async () => {
    expect(
      ((await toApiError(json({ detail: 'Cross-site request refused' }, { status: 403 }))) as ApiError).message,
    ).toBe('403: Cross-site request refused')
    const gateway = await toApiError(new Response('', { status: 502, statusText: 'Bad Gateway' }))
    expect((gateway as ApiError).message).toBe('502: Bad Gateway')
  })

  it('reports a network failure with status 0, which spec §8 calls internal', async () => {
    const error = (await toApiError(new TypeError('Failed to fetch'))) as ApiError
    expect(error).toMatchObject({ message: '0: Failed to fetch', code: 'internal' })
  })

  it('lets an abort through as an abort', async () => {
    const abort = new DOMException('The operation was aborted', 'AbortError')
    expect(await toApiError(abort)).toBe(abort)
  })

  it('maps every status of spec §8 to its code, and others to unknown', () => {
    const table = {
      400: 'invalid-argument',
      401: 'unauthenticated',
      403: 'permission-denied',
      404: 'not-found',
      409: 'aborted',
    }
    for (const [status, code] of Object.entries(table)) expect(codeForStatus(Number(status))).toBe(code)
    expect([429, 499, 500, 501, 503, 504, 0].map(codeForStatus)).toEqual([
      'resource-exhausted',
      'cancelled',
      'internal',
      'unimplemented',
      'unavailable',
      'deadline-exceeded',
      'internal',
    ])
    expect(codeForStatus(418)).toBe('unknown')
    expect(codeForStatus(402)).toBe('unknown')
  })
})
