/**
 * The segmenter's tokenizers: the rank tables and split patterns of `gpt-tokenizer`, encoded by ./bpe.ts
 * (the package's own merge is quadratic in the length of a run without spaces). Each table is megabytes, so
 * one is loaded (by a dynamic import) the first time a request names it, and kept. `gpt2` is the same
 * byte-pair encoding as `r50k_base`, as in tiktoken, and `p50k_edit` is `p50k_base` plus four special
 * tokens that plain text never produces, so those share one encoder.
 *
 * Besides `encode`, each tokenizer knows how many UTF-8 bytes every token stands for, so token texts are
 * cut from the content itself (the package's `decode` streams through one TextDecoder shared by every call,
 * so a token that ends inside a character would leave its bytes behind to corrupt the next call's text).
 */
import type { TokenizerName } from '~/contracts/search'
import { BytePairEncoder, type RankTable } from './bpe'
import { runPaced, runToEnd } from '../../paced'

export interface Tokenizer {
  name: TokenizerName
  /** Token ids of `text`, special-token text (`<|endoftext|>`) encoded as the plain text it is; in paced slices. */
  encode(text: string): Promise<number[]>
  /** The same at once, for a worker thread or a text known to be short. */
  encodeNow(text: string): number[]
  /** UTF-8 length of each token id's bytes. */
  tokenBytes: Uint16Array
}

type Ranks = { default: RankTable }
type Patterns = typeof import('gpt-tokenizer/encodingParams/constants')
type Table = 'cl100k_base' | 'o200k_base' | 'p50k_base' | 'r50k_base'

const patterns = (): Promise<Patterns> => import('gpt-tokenizer/encodingParams/constants')

// Literal specifiers, so bundlers see every module they must ship.
const tables: Record<Table, () => Promise<[Ranks, RegExp]>> = {
  cl100k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/cl100k_base'), patterns().then((p) => p.CL100K_TOKEN_SPLIT_REGEX)]),
  o200k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/o200k_base'), patterns().then((p) => p.O200K_TOKEN_SPLIT_REGEX)]),
  p50k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/p50k_base'), patterns().then((p) => p.R50K_TOKEN_SPLIT_REGEX)]),
  r50k_base: () =>
    Promise.all([import('gpt-tokenizer/bpeRanks/r50k_base'), patterns().then((p) => p.R50K_TOKEN_SPLIT_REGEX)]),
}

const tableOf: Record<TokenizerName, Table> = {
  cl100k_base: 'cl100k_base',
  o200k_base: 'o200k_base',
  p50k_base: 'p50k_base',
  p50k_edit: 'p50k_base',
  r50k_base: 'r50k_base',
  gpt2: 'r50k_base',
}

const encoders = new Map<Table, Promise<BytePairEncoder>>()

function encoderOf(table: Table): Promise<BytePairEncoder> {
  let encoder = encoders.get(table)
  if (!encoder) {
    encoder = tables[table]().then(([ranks, pattern]) => BytePairEncoder.create(ranks.default, pattern))
    // A failed load is not kept, so the next request tries again.
    encoder.catch(() => encoders.delete(table))
    encoders.set(table, encoder)
  }
  return encoder
}

export async function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  const table = tableOf[name]
  if (!table) throw new Error(`unknown tokenizer ${name}`)
  const encoder = await encoderOf(table)
  return {
    name,
    encode: (text) => {
      const ids: number[] = []
      return runPaced(encoder.encodeSteps(text, ids)).then(() => ids)
    },
    encodeNow: (text) => {
      const ids: number[] = []
      runToEnd(encoder.encodeSteps(text, ids))
      return ids
    },
    tokenBytes: encoder.tokenBytes,
  }
}
