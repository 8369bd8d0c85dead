/**
 * The segmenter's tokenizers: the rank tables and split patterns of `gpt-tokenizer`, encoded by ./bpe.ts
 * (the package's own merge is quadratic in the length of a run without spaces). One is loaded the first time a
 * request names it, and kept (./tokenizer.ts). `gpt2` is the same byte-pair encoding as `r50k_base`, as in
 * tiktoken, and `p50k_edit` is `p50k_base` plus four special tokens that plain text never produces, so those
 * share one encoder.
 */
import type { TokenizerName } from '~/contracts/search'
import { cl100kTable } from './cl100k'
import { splitPatterns, tokenizerOver, type Table, type TableLoader, type Tokenizer } from './tokenizer'

export type { Tokenizer } from './tokenizer'

// Literal specifiers, so bundlers see every module they must ship.
const tables: Record<Table, TableLoader> = {
  cl100k_base: cl100kTable,
  o200k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/o200k_base'), splitPatterns().then((p) => p.O200K_TOKEN_SPLIT_REGEX)]),
  p50k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/p50k_base'), splitPatterns().then((p) => p.R50K_TOKEN_SPLIT_REGEX)]),
  r50k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/r50k_base'), splitPatterns().then((p) => p.R50K_TOKEN_SPLIT_REGEX)]),
}

const tableOf: Record<TokenizerName, Table> = {
  cl100k_base: 'cl100k_base',
  o200k_base: 'o200k_base',
  p50k_base: 'p50k_base',
  p50k_edit: 'p50k_base',
  r50k_base: 'r50k_base',
  gpt2: 'r50k_base',
}

export function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  const table = tableOf[name]
  if (!table) return Promise.reject(new Error(`unknown tokenizer ${name}`))
  return tokenizerOver(name, table, tables[table])
}
