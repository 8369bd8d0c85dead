import { describe, expect, it } from 'vitest'
import { classifyExamples } from '~/features/demos/classify/classify-examples'
import { classifyRequest } from '~/features/demos/classify/classify-request'
import { embeddingsExamples } from '~/features/demos/embeddings/embeddings-examples'
import { embeddingsRequest } from '~/features/demos/embeddings/embeddings-request'
import { rerankExamples } from '~/features/demos/rerank/rerank-examples'
import { rerankRequest } from '~/features/demos/rerank/rerank-request'
import { segmentExamples } from '~/features/demos/segment/segment-examples'
import { chunkLength, segmentRequest } from '~/features/demos/segment/segment-request'
import * as v from 'valibot'
import { classifyBody, embeddingsBody, rerankBody, segmentBody } from '~/contracts/search'

describe('demo request bodies', () => {
  it('turn every preset example into a body the API contract accepts', () => {
    const problems: string[] = []
    const check = (what: string, schema: v.GenericSchema, body: unknown) => {
      const result = v.safeParse(schema, body)
      if (!result.success) problems.push(`${what}: ${result.issues.map((i) => i.message).join('; ')}`)
    }
    for (const e of embeddingsExamples) check(`embeddings ${e.id}`, embeddingsBody, embeddingsRequest(e.values))
    for (const e of rerankExamples) check(`rerank ${e.id}`, rerankBody, rerankRequest(e.values))
    for (const e of segmentExamples) check(`segment ${e.id}`, segmentBody, segmentRequest(e.values))
    for (const e of classifyExamples) check(`classify ${e.id}`, classifyBody, classifyRequest(e.values))
    expect(problems).toEqual([])
  })

  it('read one item per non-empty line and leave unset options out', () => {
    expect(embeddingsRequest({ input: '  a \n\n b\n', task: '', dimensions: '' })).toEqual({
      model: 'embeddings-v3',
      input: ['a', 'b'],
    })
    expect(embeddingsRequest({ input: 'a', task: 'retrieval.query', dimensions: '64' })).toMatchObject({
      task: 'retrieval.query',
      dimensions: 64,
    })
    expect(rerankRequest({ query: ' q ', documents: 'x\ny', topN: '' })).toEqual({
      model: 'reranker-v3',
      query: 'q',
      documents: ['x', 'y'],
      return_documents: true,
    })
    expect(classifyRequest({ input: 'a\n', labels: 'x\n\ny' })).toEqual({
      model: 'embeddings-v3',
      input: ['a'],
      labels: ['x', 'y'],
    })
  })

  it('ask the segmenter for chunks only when chunking, with a whole-number length', () => {
    const base = { content: 'Hello', tokenizer: 'cl100k_base' as const, maxChunkLength: '300' }
    expect(segmentRequest({ ...base, chunks: false })).toEqual({
      content: 'Hello',
      tokenizer: 'cl100k_base',
      return_tokens: true,
      return_chunks: false,
    })
    expect(segmentRequest({ ...base, chunks: true })).toMatchObject({ return_chunks: true, max_chunk_length: 300 })
    expect(chunkLength(' 250 ')).toBe(250)
    for (const bad of ['0', '-3', '2.5', 'abc', '', '100001']) expect(chunkLength(bad), bad).toBeUndefined()
    expect(chunkLength('100000')).toBe(100_000)
  })
})
