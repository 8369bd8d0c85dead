import { describe, expect, it } from 'vitest'
import { detailSentence, failureOf, retryAfterSeconds } from '~/features/demos/lib/failure'

const none = { retryAfter: null }

describe('demo failures', () => {
  it('reads a string detail as "status: detail"', () => {
    expect(failureOf(401, { detail: 'Invalid API key' }, none)).toEqual({
      kind: 'unauthorized',
      message: '401: Invalid API key',
    })
    expect(failureOf(413, { detail: 'Request body over 4194304 bytes' }, none)).toEqual({
      kind: 'other',
      message: '413: Request body over 4194304 bytes',
    })
  })

  it('joins a 422 list of {loc, msg} into one sentence naming the fields', () => {
    const detail = [
      { loc: ['body', 'documents', 2], msg: 'must not be empty', type: 'value_error' },
      { loc: ['body', 'labels'], msg: 'must hold at least two labels', type: 'value_error' },
      { loc: [], msg: 'give labels (zero-shot) or classifier_id (a trained classifier), not both', type: 'x' },
    ]
    expect(failureOf(422, { detail }, none).message).toBe(
      '422: documents[2] must not be empty; labels must hold at least two labels; give labels (zero-shot) or classifier_id (a trained classifier), not both.',
    )
    expect(detailSentence([{ loc: ['body', 'input', 0, 'text'], msg: 'must not be empty.' }])).toBe(
      'input[0].text must not be empty.',
    )
    expect(detailSentence([])).toBeUndefined()
  })

  it('says a 402 is an exhausted balance', () => {
    expect(failureOf(402, { detail: 'Balance exhausted' }, none)).toEqual({
      kind: 'exhausted',
      message: '402: Balance exhausted',
    })
  })

  it('reads when to retry a 429 from Retry-After, in seconds or as a date', () => {
    const now = Date.parse('2026-11-22T12:00:00Z')
    expect(failureOf(429, { detail: 'Rate limit exceeded' }, { retryAfter: '17' }, now)).toEqual({
      kind: 'rate-limited',
      message: '429: Rate limit exceeded',
      retryAfterSeconds: 17,
    })
    expect(retryAfterSeconds('Sun, 22 Nov 2026 12:01:30 GMT', now)).toBe(90)
    expect(retryAfterSeconds('Sun, 22 Nov 2026 11:00:00 GMT', now)).toBe(0)
    expect(retryAfterSeconds('soon', now)).toBeUndefined()
    expect(retryAfterSeconds(null, now)).toBeUndefined()
  })

  it('falls back to the text a proxy sent, then to the status text', () => {
    expect(failureOf(502, '<html>Bad gateway from nginx</html>', none).message).toBe(
      '502: <html>Bad gateway from nginx</html>',
    )
    expect(failureOf(503, '', none).message).toBe('503: Service unavailable')
    expect(failureOf(418, { detail: null }, none).message).toBe('418: Request failed')
  })
})
