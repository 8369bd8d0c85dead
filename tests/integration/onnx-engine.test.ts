import { execFileSync } from 'node:child_process'
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as ort from 'onnxruntime-node'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { EmbedOptions } from '~/server/providers/inference/engines'
import { createOnnxEngines } from '~/server/providers/inference/onnx'

// The tiny model of scripts/make-tiny-model.mjs, generated here: 32 dimensions, a 512-token context.
const hidden = 32
const plain: EmbedOptions = { requestedModel: 'anything', task: undefined, lateChunking: false }
const late: EmbedOptions = { ...plain, lateChunking: true }

let modelsDir: string
let engines: ReturnType<typeof createOnnxEngines>
let session: ort.InferenceSession
let vocab: Record<string, number>
// Every fetch fails and is recorded: the engine must never reach for the network (the Hub, a CDN).
const fetchCalls: string[] = []

beforeAll(async () => {
  vi.stubGlobal('fetch', async (input: unknown) => {
    fetchCalls.push(String(input))
    throw new Error('no network in this test')
  })
  modelsDir = mkdtempSync(join(tmpdir(), 'onnx-engine-'))
  execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'tiny')])
  execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'cross'), 'cross-encoder'])
  execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'adapters'), 'task-adapters'])
  vocab = JSON.parse(readFileSync(join(modelsDir, 'tiny', 'tokenizer.json'), 'utf8')).model.vocab
  engines = createOnnxEngines({ modelsDir, embeddingModel: 'tiny' })
  session = await ort.InferenceSession.create(join(modelsDir, 'tiny', 'onnx', 'model.onnx'))
})

afterAll(async () => {
  await session?.release()
  vi.unstubAllGlobals()
  rmSync(modelsDir, { recursive: true, force: true })
})

/** Ids of whole vocabulary words, looked up here rather than by the tokenizer under test. */
const idsOf = (text: string) => text.split(' ').map((word) => vocab[word] ?? Number.NaN)
const framed = (ids: number[]) => [vocab['[CLS]'], ...ids, vocab['[SEP]']]

/** The ONNX graph run directly (one unpadded sequence), then mean-pooled over tokens start..end-1 and normalised. */
async function expectedVector(sequence: number[], start = 0, end = sequence.length): Promise<number[]> {
  const tensor = (values: number[]) => new ort.Tensor('int64', BigInt64Array.from(values, BigInt), [1, values.length])
  const output = await session.run({
    input_ids: tensor(sequence),
    attention_mask: tensor(sequence.map(() => 1)),
    token_type_ids: tensor(sequence.map(() => 0)),
  })
  const states = output.last_hidden_state.data as Float32Array
  const mean = Array.from({ length: hidden }, (_, k) => {
    let sum = 0
    for (let t = start; t < end; t++) sum += states[t * hidden + k]
    return sum / (end - start)
  })
  const norm = Math.hypot(...mean)
  return mean.map((x) => x / norm)
}

function expectClose(actual: Float32Array, expected: number[]) {
  expect(actual).toHaveLength(expected.length)
  actual.forEach((x, k) => expect(x).toBeCloseTo(expected[k], 5))
}

const length = (vector: Float32Array) => Math.hypot(...vector)
const same = (a: Float32Array, b: Float32Array) => a.every((x, k) => x === b[k])
const distance = (a: Float32Array, b: Float32Array) => Math.hypot(...a.map((x, k) => x - b[k]))

describe('onnx embeddings', () => {
  it('describes itself from the model config', () => {
    expect(engines.embeddings).toMatchObject({
      kind: 'onnx',
      dimensions: hidden,
      maxInputTokens: 512,
      supportsLateChunking: true,
    })
    expect(engines.reranker).toMatchObject({ kind: 'onnx', maxInputTokens: 512 })
  })

  it('answers unit vectors of the mean-pooled token states, named onnx:<model>', async () => {
    const texts = ['the cat sat on the mat', 'quantum physics', 'the cat sat on the mat', 'the']
    const answer = await engines.embeddings!.embed(texts, plain)
    expect(answer.model).toBe('onnx:tiny')
    expect(answer.vectors).toHaveLength(4)
    for (const vector of answer.vectors) {
      expect(vector).toBeInstanceOf(Float32Array)
      expect(length(vector)).toBeCloseTo(1, 5)
    }
    // Batched with padding, yet each equals its own unpadded run: the mask keeps padding out.
    for (const [i, text] of texts.entries()) expectClose(answer.vectors[i], await expectedVector(framed(idsOf(text))))
    expect(same(answer.vectors[0], answer.vectors[2])).toBe(true)
    expect(distance(answer.vectors[0], answer.vectors[1])).toBeGreaterThan(0.1)
  })

  it('is deterministic across calls and independent of the batch it came in', async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `${'the cat '.repeat(i % 9)}word number ${i}`)
    const together = await engines.embeddings!.embed(texts, plain)
    const again = await engines.embeddings!.embed(texts, plain)
    expect(together.vectors.every((vector, i) => same(vector, again.vectors[i]))).toBe(true)
    for (const i of [0, 33, 69]) {
      const [alone] = (await engines.embeddings!.embed([texts[i]], plain)).vectors
      expectClose(together.vectors[i], Array.from(alone))
    }
  })

  it('cuts an input longer than the context to its first 510 tokens between [CLS] and [SEP]', async () => {
    const [long, cut] = (await engines.embeddings!.embed(['cat '.repeat(700), 'cat '.repeat(510)], plain)).vectors
    expect(same(long, cut)).toBe(true)
    const [shorter] = (await engines.embeddings!.embed(['cat '.repeat(509)], plain)).vectors
    expect(distance(long, shorter)).toBeGreaterThan(0)
  })

  it('late chunking pools each input over its own tokens of one shared sequence', async () => {
    const inputs = ['the cat', 'sat on the mat', 'quantum physics']
    const answer = await engines.embeddings!.embed(inputs, late)
    const tokens = inputs.map(idsOf)
    const sequence = framed(tokens.flat())
    let start = 1
    for (const [i, ids] of tokens.entries()) {
      expect(length(answer.vectors[i])).toBeCloseTo(1, 5)
      expectClose(answer.vectors[i], await expectedVector(sequence, start, start + ids.length))
      start += ids.length
    }
    // Aware of its neighbours: not the vector the same text gets alone.
    const alone = await engines.embeddings!.embed(inputs, plain)
    for (const [i, vector] of answer.vectors.entries()) expect(distance(vector, alone.vectors[i])).toBeGreaterThan(0.01)
  })

  it('late chunking gives an input of only spaces the vector of its whole sequence', async () => {
    const answer = await engines.embeddings!.embed(['the cat', '   ', 'mat'], late)
    expectClose(answer.vectors[1], await expectedVector(framed(idsOf('the cat mat'))))
  })

  it('late chunking continues in a next sequence when the inputs exceed the context', async () => {
    const first = 'cat '.repeat(300)
    const second = 'dog '.repeat(300)
    const [a, b] = (await engines.embeddings!.embed([first, second], late)).vectors
    const [aAlone] = (await engines.embeddings!.embed([first], late)).vectors
    const [bAlone] = (await engines.embeddings!.embed([second], late)).vectors
    // Same sequences, run in a batch of two or alone: equal up to the kernels' summation order.
    expectClose(a, Array.from(aAlone))
    expectClose(b, Array.from(bAlone))
    // …whereas inputs that fit share a sequence and see each other.
    const [c] = (await engines.embeddings!.embed(['cat '.repeat(200), 'dog '.repeat(200)], late)).vectors
    const [cAlone] = (await engines.embeddings!.embed(['cat '.repeat(200)], late)).vectors
    expect(distance(c, cAlone)).toBeGreaterThan(0.01)
  })
})

describe('onnx rerank', () => {
  it('scores in [0, 1] in document order, the query itself highest and an unrelated text lowest', async () => {
    const query = 'the cat sat on the mat'
    const documents = ['quantum physics of stars', query, 'the cat sat on a mat']
    const answer = await engines.reranker.rerank(query, documents, { requestedModel: 'whatever' })
    expect(answer.model).toBe('onnx:tiny')
    expect(answer.scores).toHaveLength(3)
    for (const score of answer.scores) expect(score).toBeGreaterThanOrEqual(0)
    for (const score of answer.scores) expect(score).toBeLessThanOrEqual(1)
    const [unrelated, identical, near] = answer.scores
    expect(identical).toBeCloseTo(1, 5)
    expect(near).toBeLessThan(identical)
    expect(unrelated).toBeLessThan(near)
  })
})

/** Runs a model file directly on one unpadded sequence. */
async function runDirectly(
  folder: string,
  feeds: Record<string, ort.Tensor>,
): Promise<ort.InferenceSession.ReturnType> {
  const direct = await ort.InferenceSession.create(join(modelsDir, folder, 'onnx', 'model.onnx'))
  try {
    return await direct.run(feeds)
  } finally {
    await direct.release()
  }
}
const int64 = (values: number[], dims = [1, values.length]) =>
  new ort.Tensor('int64', BigInt64Array.from(values, BigInt), dims)

describe('onnx cross-encoder reranker', () => {
  it('is a reranker only, scoring each query–document pair read together as the sigmoid of its logit', async () => {
    const cross = createOnnxEngines({ modelsDir, embeddingModel: 'cross' })
    expect(cross.embeddings).toBeUndefined()
    const query = 'the cat sat'
    const documents = ['on the mat', 'quantum physics', 'the cat sat']
    const answer = await cross.reranker.rerank(query, documents)
    expect(answer.model).toBe('onnx:cross')
    for (const [i, document] of documents.entries()) {
      // [CLS] query [SEP] document [SEP], the document's segment of token type 1.
      const ids = [...framed(idsOf(query)), ...idsOf(document), vocab['[SEP]']]
      const types = ids.map((_, k) => (k < idsOf(query).length + 2 ? 0 : 1))
      const { logits } = await runDirectly('cross', {
        input_ids: int64(ids),
        attention_mask: int64(ids.map(() => 1)),
        token_type_ids: int64(types),
      })
      const logit = (logits.data as Float32Array)[0]
      expect(answer.scores[i]).toBeCloseTo(1 / (1 + Math.exp(-logit)), 5)
    }
    expect(new Set(answer.scores.map((score) => score.toFixed(4))).size).toBe(3)
  })
})

describe('onnx task adapters (task_id) and multi-vector output', () => {
  const adapterVector = async (text: string, taskId: number) => {
    const ids = framed(idsOf(text))
    const { text_embeds } = await runDirectly('adapters', {
      input_ids: int64(ids),
      attention_mask: int64(ids.map(() => 1)),
      task_id: int64([taskId], []),
    })
    const states = text_embeds.data as Float32Array
    const mean = Array.from(
      { length: hidden },
      (_, k) => ids.reduce((sum, _, t) => sum + states[t * hidden + k], 0) / ids.length,
    )
    return mean.map((x) => x / Math.hypot(...mean))
  }

  it('reads its adapters from config.json and applies the one a task names', async () => {
    const { embeddings } = createOnnxEngines({ modelsDir, embeddingModel: 'adapters' })
    expect(embeddings!.tasks).toEqual({
      kind: 'adapters',
      tasks: ['retrieval.query', 'retrieval.passage', 'separation', 'classification', 'text-matching'],
    })
    const text = 'the cat sat on the mat'
    const query = await embeddings!.embed([text], { ...plain, task: 'retrieval.query' })
    const passage = await embeddings!.embed([text], { ...plain, task: 'retrieval.passage' })
    expect(query.taskApplied).toBe(true)
    expectClose(query.vectors[0], await adapterVector(text, 0))
    expectClose(passage.vectors[0], await adapterVector(text, 1))
    expect(distance(query.vectors[0], passage.vectors[0])).toBeGreaterThan(0.05)
    // A task it has no adapter for runs the first adapter, and says it did not apply the task.
    const code = await embeddings!.embed([text], { ...plain, task: 'code.query' })
    expect(code.taskApplied).toBe(false)
    expectClose(code.vectors[0], await adapterVector(text, 0))
  })

  it('answers one unit vector per token for multi-vector output (ColBERT-style), and raw pooled vectors', async () => {
    const text = 'the cat sat'
    const answer = await engines.embeddings!.embed([text], { ...plain, multiVector: true, normalized: false })
    const ids = framed(idsOf(text))
    const { last_hidden_state } = await runDirectly('tiny', {
      input_ids: int64(ids),
      attention_mask: int64(ids.map(() => 1)),
      token_type_ids: int64(ids.map(() => 0)),
    })
    const states = last_hidden_state.data as Float32Array
    const tokens = answer.multiVectors![0]
    expect(tokens).toHaveLength(ids.length)
    for (const [t, token] of tokens.entries()) {
      const row = Array.from(states.subarray(t * hidden, (t + 1) * hidden))
      expectClose(
        token,
        row.map((x) => x / Math.hypot(...row)),
      )
    }
    // normalized: false is the plain mean of the token states.
    const mean = Array.from(
      { length: hidden },
      (_, k) => ids.reduce((sum, _, t) => sum + states[t * hidden + k], 0) / ids.length,
    )
    expectClose(answer.vectors[0], mean)
    expect(length(answer.vectors[0])).not.toBeCloseTo(1, 3)
  })

  it('loads several model folders at once, each lazily and on its own', async () => {
    const [cross, adapters, tiny] = await Promise.all([
      createOnnxEngines({ modelsDir, embeddingModel: 'cross' }).reranker.rerank('cat', ['mat']),
      createOnnxEngines({ modelsDir, embeddingModel: 'adapters' }).embeddings!.embed(['cat'], plain),
      engines.embeddings!.embed(['cat'], plain),
    ])
    expect(cross.model).toBe('onnx:cross')
    expect(adapters.model).toBe('onnx:adapters')
    expect(tiny.model).toBe('onnx:tiny')
  })
})

describe('onnx model folder', () => {
  it('refuses at construction a folder that is not there, naming its path', () => {
    expect(() => createOnnxEngines({ modelsDir, embeddingModel: 'Xenova/all-MiniLM-L6-v2' })).toThrow(
      `no model folder at ${join(modelsDir, 'Xenova/all-MiniLM-L6-v2')}`,
    )
    expect(() => createOnnxEngines({ modelsDir: join(modelsDir, 'nowhere'), embeddingModel: 'tiny' })).toThrow(
      join(modelsDir, 'nowhere', 'tiny'),
    )
    expect(() => createOnnxEngines({ modelsDir, embeddingModel: '../tiny' })).toThrow('must name a folder inside')
  })

  it('names the files a folder lacks', () => {
    const partial = join(modelsDir, 'partial')
    cpSync(join(modelsDir, 'tiny'), partial, { recursive: true })
    rmSync(join(partial, 'onnx', 'model.onnx'))
    rmSync(join(partial, 'tokenizer_config.json'))
    expect(() => createOnnxEngines({ modelsDir, embeddingModel: 'partial' })).toThrow(
      `${partial} lacks tokenizer_config.json, onnx/model.onnx`,
    )
  })

  it('fails the request, naming the folder, when the model file is not a model, and loads it once repaired', async () => {
    const broken = join(modelsDir, 'broken')
    cpSync(join(modelsDir, 'tiny'), broken, { recursive: true })
    writeFileSync(join(broken, 'onnx', 'model.onnx'), 'not a protobuf')
    const engine = createOnnxEngines({ modelsDir, embeddingModel: 'broken' }).embeddings!
    await expect(engine.embed(['the cat'], plain)).rejects.toThrow(`could not load the model in ${broken}`)
    cpSync(join(modelsDir, 'tiny', 'onnx', 'model.onnx'), join(broken, 'onnx', 'model.onnx'))
    const [vector] = (await engine.embed(['the cat'], plain)).vectors
    expectClose(vector, await expectedVector(framed(idsOf('the cat'))))
  })

  it('never reached for the network, and left transformers.js unable to', async () => {
    const { env } = await import('@huggingface/transformers')
    expect(env.allowRemoteModels).toBe(false)
    expect(env.useFSCache).toBe(false)
    expect(fetchCalls).toEqual([])
  })
})
