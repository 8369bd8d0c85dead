import { beforeAll, describe, expect, it } from 'vitest'

import { call, keyWithBalance, apiDatabase } from '../support/api'

/**
 * The use-lite engine (the Universal Sentence Encoder Lite from its npm package) serving models through the
 * APIs, as SERVED_MODELS chooses it per model: embeddings, zero-shot and trained classification, and the
 * reranker's blend, each answered with `X-Engine: use-lite`, the rest of the catalogue on the builtin engine.
 */
const database = apiDatabase({
  env: {
    SERVED_MODELS: JSON.stringify({
      'embeddings-v2-base-en': { engine: 'use-lite' },
      'embeddings-v3': { engine: 'use-lite' },
      'reranker-v2-base-multilingual': { engine: 'use-lite' },
      '*': { engine: 'builtin' },
    }),
  },
})
let apiKey: string
beforeAll(async () => {
  apiKey = (await keyWithBalance(database.db, 1_000_000)).apiKey
}, 60_000)

const post = (path: string, json: Record<string, unknown>) => call('POST', path, { bearer: apiKey, json })
const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)

describe('the use-lite engine through the APIs', () => {
  it('is listed as the engine of the models it serves', async () => {
    const { body } = await call('GET', '/v1/models')
    const engineOf = Object.fromEntries(body.data.map((m: { id: string; engine: string | null }) => [m.id, m.engine]))
    expect(engineOf).toMatchObject({
      'embeddings-v2-base-en': 'use-lite',
      'embeddings-v3': 'use-lite',
      'reranker-v2-base-multilingual': 'use-lite',
      'embeddings-v4': 'builtin',
    })
  })

  it('embeds the embeddings page’s paraphrase sample close and the unrelated sentence far', async () => {
    const { status, body, response } = await post('/v1/embeddings', {
      model: 'jina-embeddings-v2-base-en',
      input: ['The cat sat on the mat.', 'A cat was sitting on the mat.', 'Stock markets fell sharply this morning.'],
    })
    expect(status).toBe(200)
    expect(response.headers.get('x-engine')).toBe('use-lite')
    expect(body.model).toBe('embeddings-v2-base-en')
    const [cat, sitting, stocks] = body.data.map((d: { embedding: number[] }) => d.embedding)
    expect(cat).toHaveLength(512)
    expect(dot(cat, sitting)).toBeGreaterThan(0.85)
    expect(dot(cat, stocks)).toBeLessThan(0.3)
  })

  it('names what it does not apply, and refuses late chunking instead of pretending it', async () => {
    const tasked = await post('/v1/embeddings', { model: 'embeddings-v3', input: ['a cat'], task: 'retrieval.query' })
    expect(tasked.status).toBe(200)
    expect(tasked.response.headers.get('x-options-not-applied')).toBe('task')
    const chunked = await post('/v1/embeddings', { model: 'embeddings-v3', input: ['a', 'b'], late_chunking: true })
    expect(chunked.status).toBe(422)
    expect(chunked.body.detail[0].loc).toEqual(['body', 'late_chunking'])
    const prefix = await post('/v1/embeddings', { model: 'embeddings-v3', input: ['a cat'], dimensions: 1024 })
    expect(prefix.status).toBe(422)
    expect(prefix.body.detail[0].msg).toBe("must be at most 512, the model's dimension")
  })

  it('classifies the classify demo’s support tickets zero-shot, each under its own label', async () => {
    const labels = ['order shipping and delivery', 'account password and login', 'billing and charges']
    const { status, body } = await post('/v1/classify', {
      model: 'embeddings-v3',
      input: ['My order arrived damaged', 'How do I change my password?', 'I was charged twice this month'],
      labels,
    })
    expect(status).toBe(200)
    expect(body.data.map((d: { prediction: string }) => d.prediction)).toEqual(labels)
  })

  it('trains a classifier on its vectors and predicts a paraphrase of an example it never saw', async () => {
    const trained = await post('/v1/train', {
      model: 'embeddings-v3',
      input: [
        { text: 'I cannot log in to my account', label: 'access' },
        { text: 'Reset my password please', label: 'access' },
        { text: 'Refund the double charge on my card', label: 'billing' },
        { text: 'Why is my invoice so high this month?', label: 'billing' },
      ],
      num_iters: 50,
    })
    expect(trained.status).toBe(200)
    const { body } = await post('/v1/classify', {
      classifier_id: trained.body.classifier_id,
      input: ['I forgot my sign-in details', 'You billed me twice'],
    })
    expect(body.data.map((d: { prediction: string }) => d.prediction)).toEqual(['access', 'billing'])
  })

  it('reranks with BM25 blended with the encoder: a paraphrase with no shared word beats an unrelated text', async () => {
    const { status, body, response } = await post('/v1/rerank', {
      model: 'reranker-v2-base-multilingual',
      query: 'How do I cancel my subscription?',
      documents: ['The weather is sunny in Berlin today.', 'Steps to end your plan'],
    })
    expect(status).toBe(200)
    expect(response.headers.get('x-engine')).toBe('use-lite')
    expect(body.results[0].index).toBe(1)
    expect(body.results[0].relevance_score).toBeGreaterThan(body.results[1].relevance_score)
  })
})
