/**
 * A tokenizer as the products use it, over one of `gpt-tokenizer`'s rank tables encoded by ./bpe.ts. Each table
 * is megabytes, so each is loaded (by a dynamic import) the first time it is needed, built once and kept.
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

export type Table = 'cl100k_base' | 'o200k_base' | 'p50k_base' | 'r50k_base'
/** A table's ranks and split pattern, each by a literal import so bundlers ship exactly the tables named. */
export type TableLoader = () => Promise<[{ default: RankTable }, RegExp]>

export const splitPatterns = () => import('gpt-tokenizer/encodingParams/constants')

const encoders = new Map<Table, Promise<BytePairEncoder>>()

/** The tokenizer `name` over `table`, its encoder built from `load` the first time and shared after. */
export async function tokenizerOver(name: TokenizerName, table: Table, load: TableLoader): Promise<Tokenizer> {
  let building = encoders.get(table)
  if (!building) {
    building = load().then(([ranks, pattern]) => BytePairEncoder.create(ranks.default, pattern))
    // A failed load is not kept, so the next request tries again.
    building.catch(() => encoders.delete(table))
    encoders.set(table, building)
  }
  const encoder = await building
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
