import { describe, expect, it } from 'vitest'
import { openAiDuration } from '~/server/http/rate-limit-headers'

describe('openAiDuration: x-ratelimit-reset-* as OpenAI writes them (Go durations)', () => {
  it.each([
    [0, '0s'],
    [17, '17ms'],
    [999.6, '1s'],
    [1000, '1s'],
    [8640, '8.64s'],
    [59_000, '59s'],
    [60_000, '1m0s'],
    [360_000, '6m0s'],
    [360_500, '6m0.5s'],
    [3_723_000, '1h2m3s'],
    [3_600_000, '1h0m0s'],
  ])('%d ms is %s', (ms, text) => expect(openAiDuration(ms)).toBe(text))
})
