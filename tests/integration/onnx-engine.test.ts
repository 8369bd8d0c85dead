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
