import { describe, expect, it } from 'vitest'
import * as v from 'valibot'
import { segmentAnswer, segmentBody, type TokenizerName } from '~/contracts/search'
import { stringifyPaced } from '~/server/paced-json'
import { segment, type SegmentOptions } from '~/server/providers/inference/segment'

const defaults: SegmentOptions = {
  tokenizer: 'cl100k_base',
  return_tokens: false,
  return_chunks: false,
  max_chunk_length: 1000,
}
/** The answer as a caller reads it: serialised as the endpoint writes it (its tokens are JSON text), then parsed. */
const run = async (content: string, options: Partial<SegmentOptions> = {}) =>
  JSON.parse(await stringifyPaced(await segment(content, { ...defaults, ...options }))) as v.InferOutput<
    typeof segmentAnswer
  >
type Entries = [string, number[]][]

/** Reference encodings published with tiktoken's test plans (shipped in gpt-tokenizer's data/TestPlans.txt). */
const reference: Record<Exclude<TokenizerName, 'gpt2'>, Record<string, number[]>> = {
  cl100k_base: {
    'Hello, World! How are you today? 🌍': [9906, 11, 4435, 0, 2650, 527, 499, 3432, 30, 11410, 234, 235],
    'こんにちは、世界！お元気ですか？': [90115, 5486, 3574, 244, 98220, 6447, 33334, 24186, 95221, 38641, 32149, 11571],
  },
  o200k_base: {
    'Hello, World! How are you today? 🌍': [13225, 11, 5922, 0, 3253, 553, 481, 4044, 30, 130321, 235],
    'こんにちは、世界！お元気ですか？': [95839, 1395, 28428, 3393, 8930, 6753, 25717, 15121, 7128, 4802],
  },
  p50k_base: {
    'The quick brown fox jumps over 13 lazy dogs. 😺': [
      464, 2068, 7586, 21831, 18045, 625, 1511, 16931, 6844, 13, 30325, 118,
    ],
  },
  // The edit models' encoding: p50k_base's ranks, so plain text encodes the same.
  p50k_edit: {
    'The quick brown fox jumps over 13 lazy dogs. 😺': [
      464, 2068, 7586, 21831, 18045, 625, 1511, 16931, 6844, 13, 30325, 118,
    ],
  },
  r50k_base: {
    'こんにちは、世界！お元気ですか？': [
      46036, 22174, 28618, 2515, 94, 31676, 23513, 10310, 244, 45911, 234, 171, 120, 223, 2515, 232, 17739, 225, 36365,
      245, 30640, 33623, 27370, 171, 120, 253,
    ],
  },
}

describe('the segmenter’s token counts', () => {
  it('counts "hello world" as 2 cl100k_base tokens, the default tokenizer', async () => {
    const { content, ...options } = v.parse(segmentBody, { content: 'hello world' })
    expect(await segment(content, options)).toEqual({ num_tokens: 2, tokenizer: 'cl100k_base', usage: { tokens: 2 } })
  })

  it('matches tiktoken’s reference encodings in every tokenizer', async () => {
    for (const [tokenizer, samples] of Object.entries(reference) as [TokenizerName, Record<string, number[]>][]) {
      for (const [content, ids] of Object.entries(samples)) {
        const answer = await run(content, { tokenizer, return_tokens: true })
        expect(answer.num_tokens, `${tokenizer}: ${content}`).toBe(ids.length)
        expect(answer.usage.tokens).toBe(ids.length)
        expect((answer.tokens as Entries).flatMap(([, group]) => group)).toEqual(ids)
      }
    }
    // Each tokenizer's tables load on first use: seconds for all of them on a loaded machine.
  }, 30_000)

  it('treats gpt2 as the r50k_base encoding, as tiktoken does', async () => {
    const content = 'こんにちは、世界！お元気ですか？'
    const gpt2 = await run(content, { tokenizer: 'gpt2', return_tokens: true })
    expect(gpt2.tokenizer).toBe('gpt2')
    expect((gpt2.tokens as Entries).flatMap(([, ids]) => ids)).toEqual(reference.r50k_base[content])
  })

  it('counts differently where the encodings differ: runs of spaces in code', async () => {
    const code = 'def add(a, b):\n        return a + b\n\n\nclass Point:\n    x: int\n    y: int\n'
    const counts = Object.fromEntries(
      await Promise.all(
        (['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base', 'gpt2'] as const).map(async (tokenizer) => [
          tokenizer,
          (await run(code, { tokenizer })).num_tokens,
        ]),
      ),
    )
    // r50k/gpt2 spend a token per space; p50k added tokens for runs of spaces; cl100k and o200k merge more.
    expect(counts.gpt2).toBe(counts.r50k_base)
    expect(counts.p50k_base).toBeLessThan(counts.r50k_base)
    expect(counts.cl100k_base).toBeLessThan(counts.p50k_base)
    expect(counts.o200k_base).toBeLessThanOrEqual(counts.p50k_base)
  })

  it('reads special-token text as plain text', async () => {
    const answer = await run('a <|endoftext|> b <|im_start|>', { return_tokens: true })
    const ids = (answer.tokens as Entries).flatMap(([, group]) => group)
    expect(ids).not.toContain(100257)
    expect(answer.num_tokens).toBeGreaterThan(5)
    expect((answer.tokens as Entries).map(([text]) => text).join('')).toBe('a <|endoftext|> b <|im_start|>')
  })
})

describe('the segmenter’s tokens', () => {
  const samples = [
    'Hello, World! How are you today? 🌍',
    'こんにちは、世界！お元気ですか？',
    '안녕하세요, 세상! 오늘 기분이 어때요? 🇰🇷',
    'Mixed: café, naïve, 𠮷野家, 👩‍👩‍👧 and ١٢٣',
  ]

  it('groups the ids of a character split across tokens, so every text is whole characters', async () => {
    const emoji = ((await run('Hello 🌍', { return_tokens: true })).tokens as Entries).at(-1)
    expect(emoji).toEqual([' 🌍', [11410, 234, 235]])
    for (const tokenizer of ['cl100k_base', 'o200k_base', 'p50k_base', 'r50k_base', 'gpt2'] as const) {
      for (const content of samples) {
        const { tokens, num_tokens } = await run(content, { tokenizer, return_tokens: true })
        const entries = tokens as Entries
        expect(entries.map(([text]) => text).join('')).toBe(content)
        expect(entries.reduce((sum, [, ids]) => sum + ids.length, 0)).toBe(num_tokens)
        for (const [text, ids] of entries) {
          expect(ids.length).toBeGreaterThan(0)
          expect(text).not.toMatch(/\uFFFD|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/)
        }
      }
    }
  })

  it('gives the same answer however often and in whatever order it is asked', async () => {
    const first = await run('こんにちは 🌍', { tokenizer: 'r50k_base', return_tokens: true, head: 3 })
    await run('世界', { tokenizer: 'r50k_base', return_tokens: true, head: 1 })
    const again = await run('こんにちは 🌍', { tokenizer: 'r50k_base', return_tokens: true, head: 3 })
    expect(again).toEqual(first)
  })

  it('keeps the first or last n tokens, rounded down to whole characters, and still counts them all', async () => {
    const content = 'Hello, World! How are you today? 🌍'
    const head = await run(content, { return_tokens: true, head: 3 })
    expect(head.num_tokens).toBe(12)
    expect(head.tokens).toEqual([
      ['Hello', [9906]],
      [',', [11]],
      [' World', [4435]],
    ])
    // The globe is three tokens: a tail of 2 cannot hold it, a tail of 4 holds it and the "?".
    expect((await run(content, { return_tokens: true, tail: 2 })).tokens).toEqual([])
    expect((await run(content, { return_tokens: true, tail: 4 })).tokens).toEqual([
      ['?', [30]],
      [' 🌍', [11410, 234, 235]],
    ])
    expect((await run(content, { return_tokens: true, head: 11 })).tokens).toHaveLength(9)
    expect((await run(content, { return_tokens: true, head: 500 })).tokens).toHaveLength(10)
  })

  it('answers only the counts when neither tokens nor chunks are asked for', async () => {
    const answer = await run('Some text.', { head: 1 })
    expect(answer).toEqual({ num_tokens: 3, tokenizer: 'cl100k_base', usage: { tokens: 3 } })
  })
})

describe('the segmenter’s chunks', () => {
  const article = [
    'Tokenizers split text into pieces. Each piece maps to an id!',
    'A second paragraph follows here. It has two sentences.',
    '東京は日本の首都です。大阪は二番目に大きい都市です。',
  ].join('\n\n')

  it('returns chunks with positions that slice back to them and tile the content', async () => {
    const answer = await run(article, { return_chunks: true, max_chunk_length: 70 })
    const chunks = answer.chunks!
    const positions = answer.chunk_positions!
    expect(answer.num_chunks).toBe(chunks.length)
    expect(chunks.join('')).toBe(article)
    positions.forEach(([start, end], i) => {
      expect(article.slice(start, end)).toBe(chunks[i])
      expect(end - start).toBeLessThanOrEqual(70)
      if (i > 0) expect(start).toBe(positions[i - 1][1])
    })
    expect(chunks[0]).toBe('Tokenizers split text into pieces. Each piece maps to an id!\n\n')
    expect(answer.num_tokens).toBeGreaterThan(0)
  })

  it('gives one token list per chunk when tokens are asked for too', async () => {
    const answer = await run(article, { return_chunks: true, return_tokens: true, max_chunk_length: 70 })
    const perChunk = answer.tokens as Entries[]
    expect(perChunk).toHaveLength(answer.chunks!.length)
    perChunk.forEach((entries, i) => expect(entries.map(([text]) => text).join('')).toBe(answer.chunks![i]))
  })

  it('chunks only the content the head or tail tokens cover, at its positions in the whole', async () => {
    const head = await run(article, { return_chunks: true, head: 8, max_chunk_length: 20 })
    const covered = head.chunks!.join('')
    expect(article.startsWith(covered)).toBe(true)
    expect((await run(covered)).num_tokens).toBeLessThanOrEqual(8)
    expect(head.num_tokens).toBeGreaterThan(8)

    const tail = await run(article, { return_chunks: true, tail: 6, max_chunk_length: 1000 })
    expect(tail.num_chunks).toBe(1)
    const [[start, end]] = tail.chunk_positions!
    expect(end).toBe(article.length)
    expect(article.slice(start, end)).toBe(tail.chunks![0])
    expect(article.endsWith(tail.chunks![0])).toBe(true)
  })

  it('answers no chunks when the head holds no whole character', async () => {
    const answer = await run('🌍 world', { return_chunks: true, head: 1 })
    expect(answer).toMatchObject({ num_chunks: 0, chunks: [], chunk_positions: [] })
  })
})
