import { beforeAll, describe, expect, it } from 'vitest'
import { SERVICE_TOKEN, call, fingerprint, keyWithBalance, apiDatabase, type CallInit } from '../support/api'

const database = apiDatabase()
let apiKey: string
let keyId: string
beforeAll(async () => {
  ;({ apiKey, id: keyId } = await keyWithBalance(database.db, 1_000))
})

type Case = [string, string, string, () => CallInit, number]
const usage = (body: unknown): CallInit => ({ bearer: SERVICE_TOKEN, json: body })
const good = () => ({ key_id: keyId, product: 'embeddings', tokens: 10, usage_event_id: 'evt-1' })

const cases: Case[] = [
  ['negative tokens', 'POST', '/internal/v1/usage', () => usage({ ...good(), tokens: -5 }), 422],
  ['zero tokens', 'POST', '/internal/v1/usage', () => usage({ ...good(), tokens: 0 }), 422],
  ['fractional tokens', 'POST', '/internal/v1/usage', () => usage({ ...good(), tokens: 1.5 }), 422],
  ['huge tokens', 'POST', '/internal/v1/usage', () => usage({ ...good(), tokens: 1e300 }), 422],
  ['non-numeric tokens', 'POST', '/internal/v1/usage', () => usage({ ...good(), tokens: '10' }), 422],
  ['unknown field', 'POST', '/internal/v1/usage', () => usage({ ...good(), discount: 1 }), 422],
  ['both api_key and key_id', 'POST', '/internal/v1/usage', () => usage({ ...good(), api_key: apiKey }), 422],
  [
    'a key id that is not a uuid',
    'POST',
    '/internal/v1/usage',
    () => usage({ ...good(), key_id: "1'; drop table api_keys" }),
    422,
  ],
  [
    'malformed JSON',
    'POST',
    '/internal/v1/usage',
    () => ({ bearer: SERVICE_TOKEN, body: '{"tokens": ', headers: { 'content-type': 'application/json' } }),
    400,
  ],
  [
    'a form where JSON belongs',
    'POST',
    '/internal/v1/usage',
    () => ({ bearer: SERVICE_TOKEN, form: { tokens: '1' } }),
    415,
  ],
  ['an oversized body', 'POST', '/internal/v1/usage', () => usage({ ...good(), model: 'x'.repeat(100_000) }), 413],
  ['JSON where a form belongs', 'POST', '/api/v1/api_key/trial', () => ({ json: { captcha: 'x' } }), 415],
  ['an unknown form field', 'POST', '/api/v1/api_key/trial', () => ({ form: { captcha: 'x', tokens: '100' } }), 422],
  [
    'a file as captcha',
    'POST',
    '/api/v1/api_key/trial',
    () => {
      const form = new FormData()
      form.set('captcha', new Blob(['x'.repeat(10)]), 'captcha.bin')
      return { body: form }
    },
    422,
  ],
  [
    'a negative threshold',
    'POST',
    '/api/v1/billing/balance_notification',
    () => ({ bearer: apiKey, json: { thresholds: [-1], email: 'a@example.com' } }),
    400,
  ],
  [
    'a fractional threshold',
    'POST',
    '/api/v1/billing/balance_notification',
    () => ({ bearer: apiKey, json: { thresholds: [1.5], email: 'a@example.com' } }),
    400,
  ],
  [
    'a text threshold',
    'POST',
    '/api/v1/billing/balance_notification',
    () => ({ bearer: apiKey, json: { thresholds: ['1000'], email: 'a@example.com' } }),
    400,
  ],
  [
    'a bad e-mail',
    'POST',
    '/api/v1/billing/balance_notification',
    () => ({ bearer: apiKey, json: { thresholds: [10], email: 'nobody' } }),
    422,
  ],
  [
    'revoke_sender_key=false',
    'POST',
    '/api/v1/billing/transfer_balance',
    () => ({ bearer: apiKey, query: { receiver_key: apiKey, revoke_sender_key: 'false' }, form: { captcha: 'x' } }),
    422,
  ],
  [
    'no receiver',
    'POST',
    '/api/v1/billing/transfer_balance',
    () => ({ bearer: apiKey, query: { revoke_sender_key: 'true' }, form: { captcha: 'x' } }),
    422,
  ],
  [
    'num_records=0',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { num_records: '0' } }),
    422,
  ],
  [
    'num_records=abc',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { num_records: 'abc' } }),
    422,
  ],
  [
    'num_records=1.5',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { num_records: '1.5' } }),
    422,
  ],
  [
    'num_records=101',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { num_records: '101' } }),
    422,
  ],
  [
    'a forged cursor',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { cursor: 'bm90LWEtY3Vyc29y' } }),
    422,
  ],
  [
    'a repeated parameter',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { num_records: ['1', '2'] } }),
    422,
  ],
  [
    'a bad transaction id',
    'GET',
    '/api/v1/billing/transaction',
    () => ({ bearer: apiKey, query: { transaction_id: '-1' } }),
    422,
  ],
  [
    'a non-date start',
    'GET',
    '/api/v1/billing/total_consumption',
    () => ({ bearer: apiKey, query: { start: 'yesterday' } }),
    422,
  ],
  [
    'start after end',
    'GET',
    '/api/v1/billing/total_consumption',
    () => ({ bearer: apiKey, query: { start: '2025-02-01', end: '2025-01-01' } }),
    422,
  ],
  [
    'a range over a year',
    'GET',
    '/api/v1/billing/total_consumption',
    () => ({ bearer: apiKey, query: { start: '2023-01-01', end: '2025-01-01' } }),
    422,
  ],
  ['an unknown tag', 'GET', '/api/v1/models', () => ({ query: { tag: ['embeddings', 'telepathy'] } }), 422],
  ['an unknown model', 'GET', '/api/v1/models/slug/nope', () => ({}), 404],
  // Text Postgres cannot store, anywhere in any input: refused at the edge, before it can fail a shared batch.
  ...(
    [
      ['a lone surrogate in a model', { model: 'm\ud800' }],
      ['a lone low surrogate in an event id', { usage_event_id: 'evt-\udc00' }],
      ['NUL in an event id', { usage_event_id: 'evt\u0000' }],
      ['NUL in a field name', { 'x\u0000': 1 }],
    ] as const
  ).map(([name, fields]): Case => [name, 'POST', '/internal/v1/usage', () => usage({ ...good(), ...fields }), 422]),
  ['NUL in a query parameter', 'GET', '/api/v1/models', () => ({ query: { tag: ['a\u0000'] } }), 422],
  ['NUL in a form field', 'POST', '/api/v1/api_key/trial', () => ({ form: { captcha: 'x\u0000' } }), 422],
  // Parameters that would land on an object's prototype are parameters like any other, and unknown.
  ...['__proto__', 'constructor', 'toString'].map((name): Case => [
    `?${name}=1`,
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { [name]: '1' } }),
    422,
  ]),
  [
    'a __proto__ form field',
    'POST',
    '/api/v1/api_key/trial',
    () => ({ body: 'captcha=x&__proto__=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }),
    422,
  ],
  // Dates and ids outside what the API can reason about: refused, never read as another day or row.
  ...['9999-12-31', '0000-01-01', '2024-02-30', '2025-13-01', '2023-02-29', '1999-12-31', '+02025-01-01'].map(
    (end): Case => [
      `end=${end}`,
      'GET',
      '/api/v1/billing/total_consumption',
      () => ({ bearer: apiKey, query: { end } }),
      422,
    ],
  ),
  [
    'start=2024-02-30',
    'GET',
    '/api/v1/billing/total_consumption',
    () => ({ bearer: apiKey, query: { start: '2024-02-30', end: '2024-03-05' } }),
    422,
  ],
  [
    'a transaction id past exact numbers',
    'GET',
    '/api/v1/billing/transaction',
    () => ({ bearer: apiKey, query: { transaction_id: '9007199254740993' } }),
    422,
  ],
  [
    'a cursor past exact numbers',
    'GET',
    '/api/v1/billing/paginated_transaction',
    () => ({ bearer: apiKey, query: { cursor: Buffer.from('e999999999999999999').toString('base64url') } }),
    422,
  ],
]

describe('malformed input everywhere (test 28)', () => {
  it.each(cases)(
    'refuses %s with a clear 4xx and {detail}, writing nothing',
    async (_name, method, path, init, status) => {
      const before = await fingerprint(database.db)
      const { status: got, body } = await call(method, path, init())
      expect(got).toBe(status)
      expect(body).toHaveProperty('detail')
      if (status === 422)
        expect(body.detail[0]).toEqual({ loc: expect.any(Array), msg: expect.any(String), type: expect.any(String) })
      if (path.endsWith('balance_notification') && status === 400)
        expect(body.detail).toBe('Invalid thresholds: Must be array with max 3 values')
      expect(await fingerprint(database.db)).toEqual(before)
    },
  )
})
