import { afterEach, describe, expect, it, vi } from 'vitest'
import { ApiError, api, apiRequest, detailText, errorFromResponse } from '~/features/dashboard/api-client'

const json = (body: unknown, init: ResponseInit) => new Response(JSON.stringify(body), { ...init, headers: { 'content-type': 'application/json' } })

afterEach(() => vi.unstubAllGlobals())

describe('dashboard API errors', () => {
  it('reads as "status: detail" when the body has a detail', async () => {
    const error = await errorFromResponse(json({ detail: 'Invalid or missing API key' }, { status: 401, statusText: 'Unauthorized' }))
    expect(error).toBeInstanceOf(ApiError)
    expect(error.message).toBe('401: Invalid or missing API key')
    expect(error.status).toBe(401)
  })

  it('falls back to the status text when the body has no detail', async () => {
    const error = await errorFromResponse(new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
    expect(error.message).toBe('502: Bad Gateway')
  })

  it('joins the messages of a 422 validation list', () => {
    expect(detailText({ detail: [{ loc: ['body', 'email'], msg: 'Invalid email', type: 'value_error' }, { msg: 'Too many' }] })).toBe('Invalid email; Too many')
  })

  it('keeps the spec wording of a refused fourth threshold', async () => {
    const error = await errorFromResponse(json({ detail: 'Invalid thresholds: Must be array with max 3 values' }, { status: 400 }))
    expect(error.message).toBe('400: Invalid thresholds: Must be array with max 3 values')
  })
})

describe('dashboard API requests', () => {
  it('sends the key as a bearer header and the captcha as form data', async () => {
    const fetch = vi.fn(async (_url: string, _init?: RequestInit) => json({ transfer_id: 't', amount: 5 }, { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    await api.transferBalance('lds_sender', 'lds_receiver', 'c4ptcha')
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit]
    expect(url).toBe('/api/v1/billing/transfer_balance?receiver_key=lds_receiver&revoke_sender_key=true')
    expect(init.method).toBe('POST')
    expect(new Headers(init.headers).get('authorization')).toBe('Bearer lds_sender')
    expect(String(init.body)).toBe('captcha=c4ptcha')
  })

  it('repeats the tag query for each model tag', async () => {
    const fetch = vi.fn(async (_url: string) => json([], { status: 200 }))
    vi.stubGlobal('fetch', fetch)
    await api.models(['embeddings', 'multilingual'])
    expect(fetch.mock.calls[0][0]).toBe('/api/v1/models?tag=embeddings&tag=multilingual')
  })

  it('throws the formatted error for a failed request', async () => {
    vi.stubGlobal('fetch', async () => json({ detail: 'Too many requests' }, { status: 429 }))
    await expect(apiRequest('/api_key/trial', { method: 'POST', form: { captcha: 'x' } })).rejects.toThrow('429: Too many requests')
  })

  it('reports a network failure with status 0', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(api.keyInfo('lds_x')).rejects.toThrow('0: Failed to fetch')
  })
})
