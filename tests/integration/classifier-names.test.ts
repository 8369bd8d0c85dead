import { describe, expect, it } from 'vitest'
import { apiDatabase, call, keyWithBalance } from '../support/api'

const database = apiDatabase()

const examples = [
  { text: 'Where is my parcel?', label: 'shipping' },
  { text: 'I cannot sign in to my account', label: 'account' },
]

describe('classifier names, kept on the server', () => {
  it('keeps the name given at training, renames and unnames it, and lists it for the key on any device', async () => {
    const key = await keyWithBalance(database.db, 100_000)
    const trained = await call('POST', '/v1/train', {
      bearer: key.apiKey,
      json: { model: 'embeddings-v3', name: '  Support tickets ', input: examples },
    })
    expect(trained.status).toBe(200)
    expect(trained.response.headers.get('x-options-not-applied')).toBeNull()
    const id = trained.body.classifier_id
    const listed = async () => (await call('GET', '/v1/classifiers', { bearer: key.apiKey })).body[0].name
    expect(await listed()).toBe('Support tickets')

    const renamed = await call('PATCH', `/v1/classifiers/${id}`, { bearer: key.apiKey, json: { name: 'Tickets' } })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({ classifier_id: id, name: 'Tickets', labels: ['shipping', 'account'] })
    expect(await listed()).toBe('Tickets')
    // The dashboard reads the same list.
    expect((await call('GET', '/api/v1/classifiers', { bearer: key.apiKey })).body[0].name).toBe('Tickets')

    // Training further keeps the name unless the request gives another.
    await call('POST', '/v1/train', { bearer: key.apiKey, json: { classifier_id: id, input: examples } })
    expect(await listed()).toBe('Tickets')

    expect((await call('PATCH', `/v1/classifiers/${id}`, { bearer: key.apiKey, json: { name: '' } })).body.name).toBe(
      null,
    )
    expect(await listed()).toBeNull()
  })

  it("refuses a name too long or on two lines, and another key's classifier reads as not found", async () => {
    const owner = await keyWithBalance(database.db, 100_000)
    const stranger = await keyWithBalance(database.db, 100_000)
    const { body } = await call('POST', '/v1/train', {
      bearer: owner.apiKey,
      json: { model: 'embeddings-v3', access: 'public', input: examples },
    })
    const rename = (bearer: string, name: unknown) =>
      call('PATCH', `/v1/classifiers/${body.classifier_id}`, { bearer, json: { name } })
    expect((await rename(owner.apiKey, 'x'.repeat(61))).status).toBe(422)
    expect((await rename(owner.apiKey, 'two\nlines')).status).toBe(422)
    expect((await rename(stranger.apiKey, 'mine now')).status).toBe(404)
    expect((await call('GET', '/v1/classifiers', { bearer: owner.apiKey })).body[0].name).toBeNull()
  })
})
