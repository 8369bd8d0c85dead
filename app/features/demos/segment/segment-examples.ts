import { msg } from '@lingui/core/macro'
import type { TokenizerName } from '~/contracts/search'
import type { Example } from '../parts/example-picker'

export interface SegmentValues {
  content: string
  tokenizer: TokenizerName
  chunks: boolean
  maxChunkLength: string
}

const article = `Tokenizers split text into the units a language model reads. Common words are usually one token; rare words, names and numbers break into several pieces.

Long documents are split into chunks before they are embedded. Good chunks end at sentence or paragraph boundaries, so each one still makes sense on its own.

Counting tokens first tells you what a request will cost and whether it fits the model's context window.`

const code = `def read_lines(path: str) -> list[str]:
    """Return the lines of a text file without trailing newlines."""
    with open(path, encoding="utf-8") as file:
        return [line.rstrip("\\n") for line in file]
`

const multilingual = `Hello, world! 👋
Grüße aus München — die Straße ist schön.
你好，世界！今天天气很好。
こんにちは、世界。東京は晴れです。
Привет, мир! Как дела?`

export const segmentExamples: readonly Example<SegmentValues>[] = [
  {
    id: 'article',
    label: msg`Article in chunks`,
    values: { content: article, tokenizer: 'cl100k_base', chunks: true, maxChunkLength: '200' },
  },
  {
    id: 'code',
    label: msg`Source code`,
    values: { content: code, tokenizer: 'o200k_base', chunks: false, maxChunkLength: '1000' },
  },
  {
    id: 'multilingual',
    label: msg`Several languages`,
    values: { content: multilingual, tokenizer: 'cl100k_base', chunks: false, maxChunkLength: '1000' },
  },
]
