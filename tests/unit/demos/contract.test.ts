import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import * as contract from '~/contracts/search'
import * as local from '~/features/demos/lib/contract'

const embeddings = {
  model: 'builtin-hashed-ngrams-1024',
  object: 'list',
  data: [
    { object: 'embedding', index: 0, embedding: [0.1, -0.2] },
    { object: 'embedding', index: 1, embedding: 'AAAAPwAAgL4=' },
  ],
  usage: { total_tokens: 9, prompt_tokens: 9 },
}
const rerank = {
  model: 'builtin-bm25',
  results: [
    { index: 1, relevance_score: 0.8, document: { text: 'b' } },
    { index: 0, relevance_score: 0.1 },
  ],
  usage: { total_tokens: 12 },
}
const segment = {
  num_tokens: 3,
  tokenizer: 'cl100k_base',
  usage: { tokens: 3 },
  num_chunks: 2,
  chunk_positions: [
    [0, 5],
    [5, 9],
  ],
  tokens: [
    [['Hello', [9906]]],
    [
      [' wor', [4191]],
      ['ld', [509]],
    ],
  ],
  chunks: ['Hello', ' world'],
}
const classify = {
  usage: { total_tokens: 7 },
  data: [
    {
      object: 'classification',
      index: 0,
      prediction: 'Shipping',
      score: 0.7,
      predictions: [
        { label: 'Shipping', score: 0.7 },
        { label: 'Billing', score: 0.3 },
      ],
    },
  ],
}

/** Each pair: the contract's answer schema and the demos' restatement of it. */
const pairs = [
  ['embeddings', contract.embeddingsAnswer, local.embeddingsAnswer, embeddings],
  ['rerank', contract.rerankAnswer, local.rerankAnswer, rerank],
  ['segment', contract.segmentAnswer, local.segmentAnswer, segment],
  ['classify', contract.classifyAnswer, local.classifyAnswer, classify],
] as const

const accepts = (schema: v.GenericSchema, value: unknown) => v.safeParse(schema, value).success

describe("the demos' copy of the search contract", () => {
  it('lists the same tasks, tokenizers and chunk limit', () => {
    expect(local.embeddingTasks).toEqual(contract.embeddingTasks)
    expect(local.tokenizers).toEqual(contract.tokenizers)
    expect(local.maxChunkLength).toBe(contract.searchLimits.maxChunkLength)
  })

  for (const [name, wire, demo, answer] of pairs) {
    it(`accepts what the contract accepts and refuses what the demo cannot draw (${name})`, () => {
      expect(accepts(wire, answer)).toBe(true)
      expect(accepts(demo, answer)).toBe(true)
      // Whatever the demo reads, broken one field at a time: both must refuse it.
      const broken = [
        { ...answer, usage: {} },
        { ...answer, usage: { total_tokens: '9', tokens: '9' } },
        Object.fromEntries(Object.entries(answer).filter(([key]) => key !== 'usage')),
      ]
      for (const value of broken) {
        expect(accepts(wire, value), JSON.stringify(value)).toBe(false)
        expect(accepts(demo, value), JSON.stringify(value)).toBe(false)
      }
    })
  }

  it('refuses malformed items as the contract does', () => {
    const bad = {
      embeddings: { ...embeddings, data: [{ object: 'embedding', index: 0, embedding: [0.1, 'x'] }] },
      rerank: { ...rerank, results: [{ index: 0 }] },
      segment: { ...segment, tokens: [['Hello', 'not ids']] },
      segmentToken: { ...segment, tokens: [['Hello']] },
      segmentTokenizer: { ...segment, tokenizer: 'bpe' },
      classify: { ...classify, data: [{ ...classify.data[0], predictions: [{ label: 'x' }] }] },
    }
    expect(accepts(contract.embeddingsAnswer, bad.embeddings) || accepts(local.embeddingsAnswer, bad.embeddings)).toBe(
      false,
    )
    expect(accepts(contract.rerankAnswer, bad.rerank) || accepts(local.rerankAnswer, bad.rerank)).toBe(false)
    for (const value of [bad.segment, bad.segmentToken, bad.segmentTokenizer])
      expect(accepts(contract.segmentAnswer, value) || accepts(local.segmentAnswer, value), JSON.stringify(value)).toBe(
        false,
      )
    expect(accepts(contract.classifyAnswer, bad.classify) || accepts(local.classifyAnswer, bad.classify)).toBe(false)
  })
})
