import { describe, expect, it } from 'vitest'
import {
  createHashedEmbeddings,
  HASHED_EMBEDDINGS_ENGINE,
  LATE_CHUNKING_CONTEXT_WEIGHT,
} from '~/server/providers/inference/builtin/hashed-embeddings'
import { formatEmbedding } from '~/server/providers/inference/embedding-output'
import type { EmbedOptions } from '~/server/providers/inference/engines'
import { cosine, norm } from './support/vectors'

const plain: EmbedOptions = { task: undefined, lateChunking: false }

async function embed(texts: string[], options: Partial<EmbedOptions> = {}) {
  return (await createHashedEmbeddings().embed(texts, { ...plain, ...options })).vectors
}

const sameVectors = (a: Float32Array[], b: Float32Array[]) =>
  a.length === b.length && a.every((x, i) => Buffer.from(x.buffer).equals(Buffer.from(b[i].buffer)))

async function similarity(a: string, b: string) {
  const [x, y] = await embed([a, b])
  return cosine(x, y)
}

describe('the hashed n-gram embeddings', () => {
  it('describes itself as the builtin engine and names its model honestly', async () => {
    const engine = createHashedEmbeddings()
    expect(engine).toMatchObject({
      kind: 'builtin',
      dimensions: 1024,
      maxInputTokens: 8192,
      supportsLateChunking: true,
    })
    const answer = await engine.embed(['hello'], { ...plain, requestedModel: 'some-other-model' })
    expect(answer.model).toBe(`${HASHED_EMBEDDINGS_ENGINE}-1024`)
    expect(HASHED_EMBEDDINGS_ENGINE).toBe('builtin-sparse-ngrams')
    const served = createHashedEmbeddings({ dimensions: 768, seedName: 'embeddings-v2-base-en' })
    expect(served.dimensions).toBe(768)
    expect((await served.embed(['hello'], plain)).model).toBe('builtin-sparse-ngrams-768/embeddings-v2-base-en')
  })

  it('keeps a usable vector in every prefix from 8 dimensions to the full size, for any non-empty text', async () => {
    const texts = [
      'a',
      'I',
      'ok',
      'hi there',
      'The cat sat.',
      ':-)',
      '🎉',
      ' \t ',
      '東京',
      'x',
      'yes',
      'no',
      'Paris',
      'why?',
      '42',
      'go home',
      'café',
      'Über',
      'a b',
      'one two three',
    ]
    for (const dimensions of [1024, 768, 2048, 128]) {
      const engine = createHashedEmbeddings({ dimensions, seedName: `m${dimensions}` })
      const { vectors } = await engine.embed(texts, plain)
      for (const [t, vector] of vectors.entries()) {
        let squares = 0
        for (let size = 1; size <= dimensions; size++) {
          squares += vector[size - 1] ** 2
          if (size >= 8 && !(squares > 0)) throw new Error(`"${texts[t]}" is all zeros at ${size} of ${dimensions}`)
        }
        // As the API answers them: re-normalised prefixes of unit length.
        for (const size of [8, 9, 31, 32, 100, dimensions]) {
          const prefix = formatEmbedding(vector, { dimensions: size, normalized: true, type: 'float' }) as number[]
          expect(Math.abs(Math.hypot(...prefix) - 1)).toBeLessThan(1e-5)
        }
      }
    }
  })

  it('keeps distances when truncated: a short prefix still tells related texts from unrelated ones', async () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog near the river bank.',
      'The quick brown fox leaps over the lazy dog near the river bank.',
      'Quarterly revenue grew by twelve percent in Europe.',
    ]
    const [a, b, c] = await embed(texts)
    for (const size of [32, 64, 256]) {
      const cut = (vector: Float32Array) =>
        Float32Array.from(formatEmbedding(vector, { dimensions: size, normalized: true, type: 'float' }) as number[])
      expect(cosine(cut(a), cut(b))).toBeGreaterThan(cosine(cut(a), cut(c)) + 0.3)
    }
  })

  it('gives each served model its own projection, the same every time', async () => {
    const text = 'the same text under two model ids'
    const [v3] = (await createHashedEmbeddings({ seedName: 'embeddings-v3' }).embed([text], plain)).vectors
    const [clip] = (await createHashedEmbeddings({ seedName: 'clip-v2' }).embed([text], plain)).vectors
    const [again] = (await createHashedEmbeddings({ seedName: 'embeddings-v3' }).embed([text], plain)).vectors
    expect(Array.from(again)).toEqual(Array.from(v3))
    expect(cosine(v3, clip)).toBeLessThan(0.5)
  })

  it('answers the raw projection with normalized: false, longer for longer texts', async () => {
    const engine = createHashedEmbeddings()
    const texts = ['short text', 'a much longer text with many more words in it than the short one has']
    const raw = (await engine.embed(texts, { ...plain, normalized: false })).vectors
    const unit = (await engine.embed(texts, plain)).vectors
    expect(norm(raw[1])).toBeGreaterThan(norm(raw[0]))
    expect(norm(raw[0])).not.toBeCloseTo(1, 2)
    for (const i of [0, 1]) expect(cosine(raw[i], unit[i]) / norm(raw[i])).toBeCloseTo(1, 5)
  })

  it('answers one vector per term for multi-vector output, and reports a task as not applied', async () => {
    const engine = createHashedEmbeddings({ multiVectorDimensions: 128 })
    const answer = await engine.embed(['late interaction scores every token', ':-)'], {
      ...plain,
      multiVector: true,
      task: 'retrieval.query',
    })
    expect(answer.taskApplied).toBe(false)
    expect(answer.multiVectors!.map((tokens) => tokens.length)).toEqual([5, 1])
    for (const token of answer.multiVectors!.flat()) {
      expect(token).toHaveLength(128)
      expect(norm(token)).toBeCloseTo(1, 5)
    }
    await expect(createHashedEmbeddings().embed(['x'], { ...plain, multiVector: true })).rejects.toThrow(/multi-vector/)
  })

  it('returns one unit-length float32 vector of 1024 dimensions per input, whatever the input', async () => {
    const texts = [
      'The quick brown fox jumps over the lazy dog.',
      'a',
      ':-) ???',
      '🎉🎉',
      '   \n\t ',
      '東京都の天気は晴れです',
      '안녕하세요 세상',
      'x'.repeat(20_000),
      Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' '),
    ]
    const vectors = await embed(texts)
    expect(vectors).toHaveLength(texts.length)
    for (const vector of vectors) {
      expect(vector).toBeInstanceOf(Float32Array)
      expect(vector).toHaveLength(1024)
      expect(norm(vector)).toBeCloseTo(1, 5)
      expect(vector.every(Number.isFinite)).toBe(true)
    }
    expect(await embed([])).toEqual([])
  })

  it('is deterministic across calls and engine instances', async () => {
    const text = 'Determinism: the same text gives the same vector, bit for bit.'
    const [first] = await embed([text])
    const [again] = await createHashedEmbeddings()
      .embed([text], plain)
      .then((r) => r.vectors)
    const [inBatch] = await embed([text, 'another text around it'])
    expect(Array.from(again)).toEqual(Array.from(first))
    expect(Array.from(inBatch)).toEqual(Array.from(first))
  })

  it('scores near duplicates far above unrelated texts', async () => {
    const sentence = 'The quick brown fox jumps over the lazy dog near the river bank.'
    expect(
      await similarity(sentence, 'The quick brown fox leaps over the lazy dog near the river bank.'),
    ).toBeGreaterThan(0.8)
    expect(
      await similarity(sentence, 'the QUICK brown fox -- jumps over the lazy dog, near the river bank!!'),
    ).toBeGreaterThan(0.95)
    expect(await similarity(sentence, 'Quarterly revenue grew by twelve percent in Europe.')).toBeLessThan(0.3)
    expect(await similarity('How do I reset my password?', 'The weather in Paris is sunny today.')).toBeLessThan(0.3)
    expect(
      await similarity(
        'Machine learning models need a lot of training data.',
        'The recipe calls for two cups of flour and an egg.',
      ),
    ).toBeLessThan(0.3)
  })

  it('brings inflections and typos close through character n-grams', async () => {
    const related = await similarity('connecting the databases', 'connected database')
    const unrelated = await similarity('connecting the databases', 'purple elephants dancing')
    expect(related).toBeGreaterThan(0.3)
    expect(unrelated).toBeLessThan(0.1)
  })

  it('normalises Unicode compatibility forms and case (NFKC, lower case)', async () => {
    const [fullWidth, ascii] = await embed(['ＨＥＬＬＯ　Ｗｏｒｌｄ', 'hello world'])
    expect(Array.from(fullWidth)).toEqual(Array.from(ascii))
  })

  it('tells texts without letters or digits apart', async () => {
    const [smile, question, smileAgain] = await embed([':-)', '???', ':-)'])
    expect(cosine(smile, question)).toBeLessThan(0.5)
    expect(Array.from(smileAgain)).toEqual(Array.from(smile))
  })

  it('matches CJK text by its character bigrams', async () => {
    const weather = await similarity('東京の天気は晴れです', '今日の東京の天気')
    const unrelated = await similarity('東京の天気は晴れです', '大阪の美味しい食べ物')
    expect(weather).toBeGreaterThan(unrelated + 0.2)
  })

  it('has no task adapters: queries and passages share one vector space', async () => {
    const text = 'what is the capital of France'
    const [asQuery] = await embed([text], { task: 'retrieval.query' })
    const [asPassage] = await embed([text], { task: 'retrieval.passage' })
    expect(Array.from(asQuery)).toEqual(Array.from(asPassage))
  })

  it('gives late-chunked vectors the context of their document', async () => {
    const chunks = [
      'Paris is the capital and largest city of France.',
      'It is known for its museums, its cafés and the tower built by Eiffel.',
      'The city hosted the Olympic Games several times.',
    ]
    const alone = await embed(chunks)
    const late = await embed(chunks, { lateChunking: true })
    const [query] = await embed(['Paris'])
    expect(late).toHaveLength(chunks.length)
    for (const vector of late) expect(norm(vector)).toBeCloseTo(1, 5)
    // The second and third chunks never say "Paris"; with their document's context they are found by it.
    for (const i of [1, 2]) expect(cosine(late[i], query)).toBeGreaterThan(cosine(alone[i], query) + 0.02)
    // Each chunk stays closest to what it says itself.
    for (let i = 0; i < chunks.length; i++) {
      for (let j = 0; j < chunks.length; j++) {
        if (j !== i) expect(cosine(late[i], alone[i])).toBeGreaterThan(cosine(late[i], alone[j]))
      }
    }
    expect(LATE_CHUNKING_CONTEXT_WEIGHT).toBeGreaterThan(0)
  })

  it('leaves a document of one chunk as it is', async () => {
    const [alone] = await embed(['A single chunk is its own document.'])
    const [late] = await embed(['A single chunk is its own document.'], { lateChunking: true })
    for (let i = 0; i < alone.length; i++) expect(late[i]).toBeCloseTo(alone[i], 6)
  })

  it('lets other work run during a long batch, and concurrent batches keep their own features', async () => {
    const engine = createHashedEmbeddings()
    const batch = (seed: number) =>
      Array.from({ length: 1000 }, (_, i) => `text ${seed} number ${i} ${'lorem ipsum dolor '.repeat(20 + (i % 7))}`)
    let otherWorkRan = false
    setImmediate(() => (otherWorkRan = true))
    const [a, b] = await Promise.all([engine.embed(batch(1), plain), engine.embed(batch(2), plain)])
    expect(otherWorkRan).toBe(true)
    const aAlone = await createHashedEmbeddings().embed(batch(1), plain)
    const bAlone = await createHashedEmbeddings().embed(batch(2), plain)
    expect(sameVectors(a.vectors, aAlone.vectors)).toBe(true)
    expect(sameVectors(b.vectors, bAlone.vectors)).toBe(true)
  })
})
