import { JinaEmbeddingFunction } from '@chroma-core/jina'
import { JinaEmbeddings } from '@langchain/community/embeddings/jina'
import { ChatOpenAI, OpenAIEmbeddings } from '@langchain/openai'
import { JinaAIEmbedding } from '@llamaindex/jinaai'
import { embed, embedMany } from 'ai'
import { createJina } from 'jina-ai-provider'
import OpenAI from 'openai'
import { beforeAll, describe, expect, inject, it } from 'vitest'
import { keyFrom } from '../support/trial-key'

/**
 * The client libraries developers already use, pointed at this server's /v1 as their documentation says (a
 * base URL option; a URL field set after construction where the constructor ignores it), with their default
 * settings and the default model name each sends. A request a client makes that fails fails the test.
 */
const baseUrl = inject('baseUrl')
const api = `${baseUrl}/v1`
let apiKey: string

beforeAll(async () => {
  apiKey = await keyFrom(baseUrl)
})

const norm = (vector: ArrayLike<number>) => Math.hypot(...Array.from(vector))
const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)
const decodeFloat32 = (base64: string) => {
  const bytes = Buffer.from(base64, 'base64')
  return Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4))
}

describe('the official openai SDK', () => {
  const client = () => new OpenAI({ apiKey, baseURL: api })

  it('embeds with its defaults: it asks for base64 and decodes it itself', async () => {
    const answer = await client().embeddings.create({ model: 'embeddings-v3', input: ['the cat sat', 'a dog ran'] })
    expect(answer.model).toBe('embeddings-v3')
    expect(answer.data).toHaveLength(2)
    for (const { embedding } of answer.data) {
      expect(embedding).toHaveLength(1024)
      expect(norm(embedding)).toBeCloseTo(1, 4)
    }
    expect(answer.usage.total_tokens).toBeGreaterThan(0)
  })

  it('embeds as floats and as base64, each at the dimensions asked for', async () => {
    const floats = await client().embeddings.create({
      model: 'embeddings-v3',
      input: 'search foundation models',
      encoding_format: 'float',
      dimensions: 256,
    })
    expect(floats.data[0].embedding).toHaveLength(256)
    expect(norm(floats.data[0].embedding)).toBeCloseTo(1, 4)
    const base64 = await client().embeddings.create({
      model: 'embeddings-v3',
      input: 'search foundation models',
      encoding_format: 'base64',
      dimensions: 64,
    })
    const decoded = decodeFloat32(base64.data[0].embedding as unknown as string)
    expect(decoded).toHaveLength(64)
    expect(norm(decoded)).toBeCloseTo(1, 4)
  })

  it('streams a deep-search chat with include_usage, the usage in a last chunk without choices', async () => {
    const stream = await client().chat.completions.create({
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: 'Which reranker reads up to 64 documents in one context window?' }],
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 4000,
      temperature: 0.2,
    })
    let text = ''
    let reasoning = ''
    let last: OpenAI.Chat.Completions.ChatCompletionChunk | undefined
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      // Not in the SDK's types: the field DeepSeek's API made the convention for reasoning.
      reasoning += (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? ''
      last = chunk
    }
    // The reasoning comes apart from the answer, which carries no <think> block.
    expect(reasoning.trim().length).toBeGreaterThan(0)
    expect(text).not.toContain('<think>')
    expect(text.trim().length).toBeGreaterThan(0)
    expect(last?.choices).toEqual([])
    expect(last?.usage?.total_tokens).toBeGreaterThan(0)
  })

  it('lists the models: what this server serves, by API id', async () => {
    const ids: string[] = []
    for await (const model of client().models.list()) ids.push(model.id)
    expect(ids).toEqual(expect.arrayContaining(['embeddings-v3', 'clip-v2', 'reranker-v3', 'deepsearch-v1']))
    const one = await client().models.retrieve('jina-embeddings-v3')
    expect(one).toMatchObject({ id: 'embeddings-v3', object: 'model', served: true, engine: 'builtin' })
    // Answered live from the running configuration: the model pages link here, and the build must not have
    // crawled the links into static files.
    for (const id of ['embeddings-v3', 'reranker-m0']) {
      const response = await fetch(`${api}/models/${id}`)
      expect(response.headers.get('content-type')).toMatch(/^application\/json/)
      expect(((await response.json()) as { id: string }).id).toBe(id)
    }
  })
})

describe('LangChain', () => {
  it('OpenAIEmbeddings embeds queries and documents (it sends encoding_format)', async () => {
    const embeddings = new OpenAIEmbeddings({ model: 'embeddings-v3', apiKey, configuration: { baseURL: api } })
    const [query, documents] = await Promise.all([
      embeddings.embedQuery('what does the reranker do?'),
      embeddings.embedDocuments(['The reranker orders documents.', 'Bread needs flour.']),
    ])
    expect(query).toHaveLength(1024)
    expect(documents).toHaveLength(2)
    expect(cosine(query, documents[0])).toBeGreaterThan(cosine(query, documents[1]))
  })

  it('ChatOpenAI streams a deep-search answer (it sends stream_options)', async () => {
    const chat = new ChatOpenAI({ model: 'deepsearch-v1', apiKey, configuration: { baseURL: api } })
    let text = ''
    for await (const chunk of await chat.stream('What is late chunking?')) text += String(chunk.content)
    expect(text).toMatch(/chunk/i)
    expect(text).not.toContain('<think>')
  })

  it('JinaEmbeddings works with its default model (jina-clip-v2), dimensions and tasks', async () => {
    const embeddings = new JinaEmbeddings({ apiKey })
    // Its constructor ignores a baseUrl field; the field itself is the documented place for the URL.
    embeddings.baseUrl = `${api}/embeddings`
    expect(embeddings.model).toBe('jina-clip-v2')
    const query = await embeddings.embedQuery('a photo of a cat')
    const documents = await embeddings.embedDocuments(['A cat sleeps on the sofa.', 'Stock markets fell today.'])
    expect(query).toHaveLength(1024)
    expect(documents.map((vector) => vector.length)).toEqual([1024, 1024])
    expect(cosine(query, documents[0])).toBeGreaterThan(cosine(query, documents[1]))
  })
})

describe('the Vercel AI SDK with jina-ai-provider', () => {
  const jina = () => createJina({ apiKey, baseURL: api })

  it('embeds one value and many, with its provider options', async () => {
    const one = await embed({ model: jina().textEmbeddingModel('jina-embeddings-v3'), value: 'sunny day at the beach' })
    expect(one.embedding).toHaveLength(1024)
    expect(one.usage.tokens).toBeGreaterThan(0)
    const many = await embedMany({
      model: jina().textEmbeddingModel('jina-embeddings-v3'),
      values: ['sunny day at the beach', 'rainy night in the city'],
      providerOptions: { jina: { inputType: 'retrieval.passage', outputDimension: 128, lateChunking: true } },
    })
    expect(many.embeddings.map((vector) => vector.length)).toEqual([128, 128])
  })

  it('embeds {text} values with its multimodal model', async () => {
    // The provider's multimodal model takes {text} and {image} values, which ai 7's types do not express (they
    // say strings); at run time the SDK hands the values to the model as they are.
    const model = jina().multiModalEmbeddingModel('jina-clip-v2') as unknown as Parameters<typeof embedMany>[0]['model']
    const values = [{ text: 'a red car' }, { text: 'a blue boat' }] as unknown as string[]
    const { embeddings } = await embedMany({ model, values })
    expect(embeddings.map((vector) => vector.length)).toEqual([1024, 1024])
  })
})

describe("LlamaIndex's JinaAIEmbedding", () => {
  it('embeds with its defaults (jina-embeddings-v3, encoding_type float, {text} inputs)', async () => {
    const embeddings = new JinaAIEmbedding({ apiKey, baseURL: `${api}/embeddings` })
    const one = await embeddings.getTextEmbedding('hello world')
    const many = await embeddings.getTextEmbeddings(['hello world', 'goodbye moon'])
    expect(one).toHaveLength(1024)
    expect(many).toHaveLength(2)
    expect(many[0]).toEqual(one)
  })
})

describe("Chroma's Jina embedding function", () => {
  it('embeds with its default model (jina-clip-v2)', async () => {
    const embedder = new JinaEmbeddingFunction({ apiKey })
    // The URL is a field, set after construction.
    ;(embedder as unknown as { url: string }).url = `${api}/embeddings`
    const vectors = await embedder.generate(['first document', 'second document'])
    expect(vectors.map((vector) => vector.length)).toEqual([1024, 1024])
  })
})
