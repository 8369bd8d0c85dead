import { afterEach, describe, expect, it, vi } from 'vitest'
import { openDatabase, useDatabase } from '~/server/db/client'
import { hashKey } from '~/server/domain/keys'
import { call, keyWithBalance, apiDatabase } from '../support/api'

const database = apiDatabase()

/**
 * Every log line the server writes while `run` runs, parsed, but the request line every answer gets
 * (tests/integration/request-pipeline.test.ts checks that one).
 */
async function logged<T>(
  run: () => Promise<T>,
): Promise<{ result: T; lines: Array<Record<string, any>>; raw: string }> {
  const printed: string[] = []
  const capture = (...args: unknown[]) => void printed.push(args.map(String).join(' '))
  vi.spyOn(console, 'log').mockImplementation(capture)
  vi.spyOn(console, 'error').mockImplementation(capture)
  const result = await run()
  vi.restoreAllMocks()
  const lines = printed.map((line) => JSON.parse(line)).filter((line) => line.msg !== 'request')
  return { result, lines, raw: printed.join('\n') }
}
const requestId = { 'x-request-id': 'req-test' }

const previousLevel = process.env.LOG_LEVEL
afterEach(() => {
  // Assigning undefined to process.env would store the text "undefined".
  if (previousLevel === undefined) delete process.env.LOG_LEVEL
  else process.env.LOG_LEVEL = previousLevel
  useDatabase(database)
})

describe('what a caller reads and what the log keeps', () => {
  it('answers an unexpected failure with a bare 500 and logs it once, with the request id and its cause', async () => {
    process.env.LOG_LEVEL = 'info'
    const key = await keyWithBalance(database.db, 10)
    // A database that went away mid-flight: the query fails in the driver, not in our code.
    const gone = await openDatabase({})
    await gone.close()
    useDatabase(gone)
    const { result, lines, raw } = await logged(() =>
      call('GET', '/api/v1/api_key/fe_user', { bearer: key.apiKey, headers: requestId }),
    )
    expect(result.status).toBe(500)
    expect(result.body).toEqual({ detail: 'Internal server error' })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 'error',
      msg: 'unexpected error',
      request_id: 'req-test',
      path: '/api/v1/api_key/fe_user',
    })
    expect(lines[0].error.message).toBeTruthy()
    // One line per failure: where it was thrown, never a stack dump or the values the query carried.
    expect(lines[0].error.stack).toBeUndefined()
    expect(lines[0].error.at).toMatch(/\S/)
    expect(raw).not.toContain(key.apiKey)
    expect(raw).not.toContain(hashKey(key.apiKey))
    expect(raw).not.toMatch(/\\n\s+at /)
  })

  it('logs a failure naming a URL without its query string', async () => {
    const { errorResponse } = await import('~/server/http/errors')
    const failure = new Error('fetch failed: https://api.example/v1/check?api_key=lds_secret&x=1\n    at somewhere')
    const { lines, raw } = await logged(async () => errorResponse(failure))
    expect(lines[0].error.message).toBe('fetch failed: https://api.example/v1/check?…')
    expect(raw).not.toContain('lds_secret')
  })

  it('keeps the cause chain of an error that wraps another', async () => {
    const { errorResponse } = await import('~/server/http/errors')
    const failure = new Error('could not settle the batch', {
      // A lost connection would be a 503 (db-unreachable.test.ts); a corrupt page is unexpected.
      cause: Object.assign(new Error('could not read block 7'), { code: 'XX001' }),
    })
    const { result, lines } = await logged(async () => errorResponse(failure))
    expect(result.status).toBe(500)
    expect(await result.text()).not.toContain('could not read block')
    expect(lines[0].error.cause).toMatchObject({ message: 'could not read block 7', code: 'XX001' })
  })

  it('logs a refusal at info with its kind and where, never the captcha answer or the key', async () => {
    process.env.LOG_LEVEL = 'info'
    const captcha = 'c2VjcmV0LWNhcHRjaGEtYW5zd2Vy'
    const refusedCaptcha = await logged(() =>
      call('POST', '/api/v1/api_key/trial', { form: { captcha }, headers: requestId }),
    )
    expect(refusedCaptcha.result).toMatchObject({ status: 400, body: { detail: 'Captcha verification failed' } })
    expect(refusedCaptcha.lines).toEqual([
      expect.objectContaining({
        level: 'info',
        msg: 'refused',
        status: 400,
        refusal: 'CaptchaRejected',
        request_id: 'req-test',
      }),
    ])
    expect(refusedCaptcha.raw).not.toContain(captcha)

    const key = `lds_${'k'.repeat(300)}`
    const refusedInput = await logged(() => call('GET', '/api/v1/api_key/fe_user', { query: { api_key: key } }))
    expect(refusedInput.result.status).toBe(422)
    expect(refusedInput.lines[0]).toMatchObject({
      refusal: 'InvalidInput',
      issues: [{ loc: ['query', 'api_key'], type: 'max_length' }],
    })
    expect(refusedInput.raw).not.toContain('kkkk')
  })

  it('leaves refusals out of the log below LOG_LEVEL', async () => {
    process.env.LOG_LEVEL = 'warn'
    const { lines } = await logged(() => call('GET', '/api/v1/api_key/fe_user'))
    expect(lines).toEqual([])
  })
})
