import { beforeAll, describe, expect, it } from 'vitest'
import { apiDatabase, call, keyWithBalance } from '../support/api'

/**
 * Every documented option of /v1/embeddings, /v1/rerank, /v1/segment, /v1/classify and /v1/train on the default (builtin) engines:
 * honoured, refused with a 422 saying why, or named in X-Options-Not-Applied. Never silently ignored.
 */
const database = apiDatabase()
let apiKey: string
beforeAll(async () => {
  apiKey = (await keyWithBalance(database.db, 10_000_000)).apiKey
})

const embed = (json: Record<string, unknown>) =>
  call('POST', '/v1/embeddings', { bearer: apiKey, json: { model: 'embeddings-v3', ...json } })
const rerank = (json: Record<string, unknown>) =>
  call('POST', '/v1/rerank', {
    bearer: apiKey,
    json: { model: 'reranker-v3', query: 'capital of France', ...json },
  })
const notApplied = (response: Response) => response.headers.get('x-options-not-applied')
const norm = (vector: number[]) => Math.hypot(...vector)
const floats = (base64: string) => {
  const bytes = Buffer.from(base64, 'base64')
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))
}
const refusal = (body: { detail: Array<{ loc: Array<string | number>; msg: string }> }) => body.detail[0]

describe('models served by name', () => {
  it('answers an alias the client libraries send with the served model and names the engine', async () => {
    const { status, body, response } = await embed({ model: 'jina-embeddings-v3', input: ['hello'] })
    expect(status).toBe(200)
    expect(body.model).toBe('embeddings-v3')
    expect(response.headers.get('x-engine')).toBe('builtin')
    expect(notApplied(response)).toBeNull()
  })

  it('gives each model its own vectors, of its own size', async () => {
    const [v3, clip, v2] = await Promise.all(
      ['embeddings-v3', 'clip-v2', 'embeddings-v2-base-en'].map((model) => embed({ model, input: ['a red car'] })),
    )
    const vector = (answer: typeof v3) => answer.body.data[0].embedding as number[]
    expect(vector(v2)).toHaveLength(768)
    expect(vector(v3).some((x, i) => x !== vector(clip)[i])).toBe(true)
  })

  it('refuses a model it does not serve with a 422 naming those it does', async () => {
    for (const model of ['text-embedding-ada-002', 'reader-lm-0.5b', 'reranker-v3']) {
      const { status, body } = await embed({ model, input: ['x'] })
      expect(status, model).toBe(422)
      expect(refusal(body).loc).toEqual(['body', 'model'])
      expect(refusal(body).msg).toMatch(/this server serves .*embeddings-v3/)
    }
  })

  it('lists every catalogue model with its API id, aliases, whether and how it is served, and its options', async () => {
    const { status, body } = await call('GET', '/v1/models')
    expect(status).toBe(200)
    expect(body.object).toBe('list')
    const v3 = body.data.find((model: { id: string }) => model.id === 'embeddings-v3')
    expect(v3).toMatchObject({
      object: 'model',
      aliases: ['jina-embeddings-v3'],
      capabilities: ['embeddings', 'classify'],
      dimensions: 1024,
      served: true,
      engine: 'builtin',
    })
    expect(v3.options.embeddings.not_applied).toEqual(['task', 'user'])
    expect(v3.options.embeddings.honoured).toEqual(expect.arrayContaining(['encoding_format', 'late_chunking']))
    expect(v3.options.embeddings.refused).toEqual(['return_multivector', 'input.image'])
    expect(body.data.map((model: { id: string }) => model.id)).toContain('deepsearch-v1')
    expect(body.data.map((model: { id: string }) => model.id)).not.toContain('reader-lm-0.5b')
    const one = await call('GET', '/v1/models/jina-clip-v2', {})
    expect(one.body).toMatchObject({ id: 'clip-v2', inputs: ['text', 'image'], served: true })
    expect((await call('GET', '/v1/models/gpt-4', {})).status).toBe(404)
  })
})

describe('POST /v1/embeddings options', () => {
  it('accepts unknown fields and names them as not applied', async () => {
    const { status, response } = await embed({ input: ['x'], colour: 'red', input_type: 'query' })
    expect(status).toBe(200)
    expect(notApplied(response)).toBe('colour, input_type')
  })

  it("honours OpenAI's encoding_format: float and base64", async () => {
    const asFloats = await embed({ input: ['x'], encoding_format: 'float' })
    const asBase64 = await embed({ input: ['x'], encoding_format: 'base64' })
    expect(floats(asBase64.body.data[0].embedding)).toEqual(
      asFloats.body.data[0].embedding.map((x: number) => Math.fround(x)),
    )
    expect((await embed({ input: ['x'], encoding_format: 'binary' })).status).toBe(422)
  })

  it("honours LlamaIndex's encoding_type and a list of embedding_type, one answer with each encoding", async () => {
    const { body } = await embed({ input: ['x'], encoding_type: 'ubinary', dimensions: 16 })
    expect(body.data[0].embedding).toHaveLength(2)
    const both = await embed({ input: ['x'], embedding_type: ['float', 'base64', 'binary'], dimensions: 32 })
    const { float, base64, binary } = both.body.data[0].embedding
    expect(float).toHaveLength(32)
    expect(floats(base64)).toEqual(float.map((x: number) => Math.fround(x)))
    expect(binary).toHaveLength(4)
    const clash = await embed({ input: ['x'], embedding_type: 'float', encoding_format: 'base64' })
    expect(clash.status).toBe(422)
    expect(refusal(clash.body).msg).toMatch(/name the same thing/)
  })

  it("names OpenAI's user as not applied", async () => {
    const { status, response } = await embed({ input: ['x'], user: 'end-user-42' })
    expect(status).toBe(200)
    expect(notApplied(response)).toBe('user')
  })

  it('honours dimensions from 8 to the full size, each prefix a unit vector and never all zeros', async () => {
    const input = ['a', 'I', 'ok', 'hi', 'go', 'yes', 'no', 'x', '42', ':-)', '東京', 'Paris', 'cat', 'why?', 'é']
    for (const dimensions of [8, 9, 16, 32, 64, 100, 512, 1024]) {
      const { body } = await embed({ input, dimensions })
      for (const { embedding } of body.data) {
        expect(embedding).toHaveLength(dimensions)
        expect(norm(embedding)).toBeCloseTo(1, 5)
      }
    }
    for (const dimensions of [7, 1025]) {
      const { status, body } = await embed({ input: ['x'], dimensions })
      expect(status).toBe(422)
      expect(refusal(body).loc).toEqual(['body', 'dimensions'])
    }
  })

  it('names a task the model has no adapter for here as not applied, code tasks included', async () => {
    for (const task of ['retrieval.query', 'code.query', 'code.passage']) {
      const { status, response } = await embed({ input: ['def f(): pass'], task })
      expect(status, task).toBe(200)
      expect(notApplied(response)).toBe('task')
    }
    expect((await embed({ input: ['x'], task: 'summarise' })).status).toBe(422)
  })

  it('answers the raw vector for normalized: false', async () => {
    const raw = await embed({ input: ['a longer text with many words to embed here'], normalized: false })
    const unit = await embed({ input: ['a longer text with many words to embed here'] })
    const vector = raw.body.data[0].embedding as number[]
    expect(norm(vector)).toBeGreaterThan(1.5)
    const scaled = vector.map((x) => x / norm(vector))
    scaled.forEach((x, i) => expect(x).toBeCloseTo(unit.body.data[0].embedding[i], 5))
  })

  it('answers one vector per token for return_multivector on a multi-vector model, and refuses it elsewhere', async () => {
    const { status, body } = await embed({
      model: 'colbert-v2',
      input: ['late interaction model'],
      return_multivector: true,
    })
    expect(status).toBe(200)
    const tokens = body.data[0].embeddings as number[][]
    expect(tokens).toHaveLength(3)
    for (const token of tokens) expect(norm(token)).toBeCloseTo(1, 5)
    expect(body.data[0].embedding).toBeUndefined()
    const refused = await embed({ input: ['x'], return_multivector: true })
    expect(refused.status).toBe(422)
    expect(refusal(refused.body).msg).toMatch(/colbert-v2, embeddings-v4/)
  })

  it('honours truncate, and refuses late_chunking on a model without it', async () => {
    const long = 'word '.repeat(9000)
    expect((await embed({ input: [long] })).status).toBe(422)
    expect((await embed({ input: [long], truncate: true })).status).toBe(200)
    const chunks = ['Paris is the capital of France.', 'It has the Eiffel tower.']
    const late = await embed({ input: chunks, late_chunking: true })
    const alone = await embed({ input: chunks })
    expect(late.body.data[1].embedding).not.toEqual(alone.body.data[1].embedding)
    const clip = await embed({ model: 'clip-v2', input: chunks, late_chunking: true })
    expect(clip.status).toBe(422)
    expect(refusal(clip.body).loc).toEqual(['body', 'late_chunking'])
  })

  it('reads {text} inputs, and refuses {image} inputs naming who reads them', async () => {
    const text = await embed({ input: [{ text: 'hello' }, 'hello'] })
    expect(text.body.data[0].embedding).toEqual(text.body.data[1].embedding)
    const textOnly = await embed({ input: ['a cat', { image: 'https://example.com/cat.png' }] })
    expect(textOnly.status).toBe(422)
    expect(refusal(textOnly.body)).toMatchObject({ loc: ['body', 'input', 1] })
    expect(refusal(textOnly.body).msg).toMatch(
      /reads text only \(models that read images: reranker-m0, clip-v2, embeddings-v4\)/,
    )
    const builtin = await embed({ model: 'clip-v2', input: [{ image: 'iVBORw0KGgo=' }] })
    expect(builtin.status).toBe(422)
    expect(refusal(builtin.body).msg).toMatch(
      /builtin engine, which reads text only: images are read by the upstream engine/,
    )
    const both = await embed({ model: 'clip-v2', input: [{ text: 'x', image: 'iVBORw0KGgo=' }] })
    expect(both.status).toBe(422)
  })
})

describe('POST /v1/rerank options', () => {
  const documents = [
    'Berlin is the capital of Germany',
    { text: 'Paris is the capital of France', title: 'Paris', id: 7 },
  ]

  it('takes documents as strings or objects with extra fields, and returns them as sent', async () => {
    const { status, body, response } = await rerank({ documents })
    expect(status).toBe(200)
    expect(body.model).toBe('reranker-v3')
    expect(response.headers.get('x-engine')).toBe('builtin')
    expect(body.results[0]).toMatchObject({ index: 1, document: documents[1] })
    expect(body.results[1].document).toEqual({ text: documents[0] })
  })

  it('honours top_n and return_documents', async () => {
    const { body } = await rerank({ documents, top_n: 1, return_documents: false })
    expect(body.results).toEqual([{ index: 1, relevance_score: expect.any(Number) }])
  })

  it('refuses image documents on the builtin engine and on text-only rerankers', async () => {
    const image = [{ image: 'https://example.com/chart.png' }]
    const m0 = await rerank({ model: 'reranker-m0', documents: image })
    expect(m0.status).toBe(422)
    expect(refusal(m0.body).msg).toMatch(/builtin engine, which reads text only/)
    const v3 = await rerank({ documents: image })
    expect(refusal(v3.body).msg).toMatch(/reranker-v3 reads text only/)
  })

  it('accepts unknown fields and names them as not applied', async () => {
    const { status, response } = await rerank({ documents, instruction: 'prefer recent' })
    expect(status).toBe(200)
    expect(notApplied(response)).toBe('instruction')
  })
})

describe('POST /v1/segment', () => {
  it('counts p50k_edit tokens, and reports a free call as the original does: usage 0', async () => {
    const { status, body } = await call('POST', '/v1/segment', {
      bearer: apiKey,
      json: { content: 'Fix the spelling mistakes', tokenizer: 'p50k_edit' },
    })
    expect(status).toBe(200)
    expect(body).toMatchObject({ tokenizer: 'p50k_edit', num_tokens: 4, usage: { tokens: 0 } })
  })

  it('accepts unknown fields, names them as not applied, and honours head and tail', async () => {
    const segment = (json: Record<string, unknown>) =>
      call('POST', '/v1/segment', { bearer: apiKey, json: { content: 'one two three four', ...json } })
    const { status, body, response } = await segment({ return_tokens: true, head: 2, language: 'en' })
    expect(status).toBe(200)
    expect(body.tokens.map(([text]: [string]) => text)).toEqual(['one', ' two'])
    expect(notApplied(response)).toBe('language')
    const plain = await segment({})
    expect(notApplied(plain.response)).toBeNull()
    // A documented option with a bad value is still refused, saying why.
    const both = await segment({ head: 1, tail: 1, language: 'en' })
    expect(both.status).toBe(422)
    expect(refusal(both.body).msg).toMatch(/head or tail, not both/)
  })
})

describe('POST /v1/classify and /v1/train', () => {
  const labels = ['shipping delivery parcel', 'account password login']
  const classify = (json: Record<string, unknown>) => call('POST', '/v1/classify', { bearer: apiKey, json })
  const train = (json: Record<string, unknown>) => call('POST', '/v1/train', { bearer: apiKey, json })

  it('classifies zero-shot with unknown fields accepted and named as not applied, with the engine', async () => {
    const { status, body, response } = await classify({
      model: 'jina-embeddings-v3',
      input: ['my parcel is late', { text: 'I forgot my password' }],
      labels,
      user: 'u-1',
      temperature: 0,
    })
    expect(status).toBe(200)
    expect(body.data.map((item: { prediction: string }) => item.prediction)).toEqual(labels)
    expect(response.headers.get('x-engine')).toBe('builtin')
    expect(notApplied(response)).toBe('user, temperature')
    const plain = await classify({ model: 'embeddings-v3', input: ['parcel'], labels })
    expect(notApplied(plain.response)).toBeNull()
  })

  it('still refuses documented options given wrongly, saying why', async () => {
    const repeated = await classify({ model: 'embeddings-v3', input: ['x'], labels: ['a', 'a'], extra: 1 })
    expect(repeated.status).toBe(422)
    expect(refusal(repeated.body).msg).toMatch(/must not repeat a label/)
    const tooMany = await train({ model: 'embeddings-v3', num_iters: 1000, input: [{ text: 'x', label: 'a' }] })
    expect(tooMany.status).toBe(422)
    expect(refusal(tooMany.body).msg).toMatch(/at most 100/)
  })

  it('trains with unknown fields in the body and the examples named, then classifies with the classifier', async () => {
    const trained = await train({
      model: 'embeddings-v3',
      num_iters: 20,
      metadata: { team: 'support' },
      input: [
        { text: 'my parcel never arrived', label: 'shipping', weight: 2 },
        { text: 'the delivery is late', label: 'shipping' },
        { text: 'I cannot log in to my account', label: 'account' },
        { text: 'reset my password please', label: 'account', source: 'mail' },
      ],
    })
    expect(trained.status).toBe(200)
    expect(trained.body.num_samples).toBe(4)
    expect(notApplied(trained.response)).toBe('metadata, input[].weight, input[].source')
    expect(trained.response.headers.get('x-engine')).toBe('builtin')

    const id = trained.body.classifier_id
    const sameModel = await classify({ classifier_id: id, model: 'jina-embeddings-v3', input: ['parcel late'] })
    expect(sameModel.status).toBe(200)
    expect(sameModel.body.data[0].prediction).toBe('shipping')
    expect(notApplied(sameModel.response)).toBeNull()
    // The classifier computes with its own model: another model named beside it changes nothing, and says so.
    const otherModel = await classify({ classifier_id: id, model: 'embeddings-v2-base-en', input: ['parcel late'] })
    expect(otherModel.status).toBe(200)
    expect(notApplied(otherModel.response)).toBe('model')
  })
})
