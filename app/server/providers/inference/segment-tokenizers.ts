/**
 * The segmenter's tokenizers, from `gpt-tokenizer`. Each encoding's tables are megabytes, so one is loaded
 * (by a dynamic import) the first time a request names it, and kept. `gpt2` is the same byte-pair encoding
 * as `r50k_base`, as in tiktoken.
 *
 * Besides `encode`, each tokenizer knows how many UTF-8 bytes every token stands for (from the encoding's
 * rank table, which its encoder shares), so token texts are cut from the content itself. The package's own
 * `decode` is avoided for that: it streams through one TextDecoder shared by every call, so decoding a
 * token that ends inside a character leaves its bytes behind to corrupt the next call's text.
 */
import type { TokenizerName } from '~/contracts/search'

export interface Tokenizer {
  name: TokenizerName
  /** Token ids of `text`, special-token text (`<|endoftext|>`) encoded as the plain text it is. */
  encode(text: string): number[]
  /** UTF-8 length of each token id's bytes. */
  tokenBytes: Uint16Array
}

interface EncodingModule {
  encode(text: string, options: { allowedSpecial: Set<string>; disallowedSpecial: Set<string> }): number[]
}

type Ranks = { default: (string | number[])[] }

const asPlainText = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }

// Literal specifiers, so bundlers see every module they must ship.
const loaders: Record<TokenizerName, () => Promise<[EncodingModule, Ranks]>> = {
  cl100k_base: () =>
    Promise.all([import('gpt-tokenizer/encoding/cl100k_base'), import('gpt-tokenizer/bpeRanks/cl100k_base')]),
  o200k_base: () =>
    Promise.all([import('gpt-tokenizer/encoding/o200k_base'), import('gpt-tokenizer/bpeRanks/o200k_base')]),
  p50k_base: () =>
    Promise.all([import('gpt-tokenizer/encoding/p50k_base'), import('gpt-tokenizer/bpeRanks/p50k_base')]),
  // p50k_base's ranks plus the edit models' four special tokens, which plain text never produces.
  p50k_edit: () =>
    Promise.all([import('gpt-tokenizer/encoding/p50k_edit'), import('gpt-tokenizer/bpeRanks/p50k_base')]),
  r50k_base: () =>
    Promise.all([import('gpt-tokenizer/encoding/r50k_base'), import('gpt-tokenizer/bpeRanks/r50k_base')]),
  gpt2: () => Promise.all([import('gpt-tokenizer/encoding/gpt2'), import('gpt-tokenizer/bpeRanks/r50k_base')]),
}

function utf8Length(text: string): number {
  let bytes = 0
  for (const character of text) {
    const codePoint = character.codePointAt(0)!
    bytes += codePoint < 0x80 ? 1 : codePoint < 0x800 ? 2 : codePoint < 0x10000 ? 3 : 4
  }
  return bytes
}

function byteLengths(ranks: (string | number[])[]): Uint16Array {
  const lengths = new Uint16Array(ranks.length)
  // forEach skips the holes some rank tables have; those ids are never produced.
  ranks.forEach((token, id) => {
    lengths[id] = typeof token === 'string' ? utf8Length(token) : token.length
  })
  return lengths
}

const loaded = new Map<TokenizerName, Promise<Tokenizer>>()

export function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  let tokenizer = loaded.get(name)
  if (!tokenizer) {
    const load = loaders[name]
    if (!load) return Promise.reject(new Error(`unknown tokenizer ${name}`))
    tokenizer = load().then(([encoding, ranks]) => ({
      name,
      encode: (text: string) => encoding.encode(text, asPlainText),
      tokenBytes: byteLengths(ranks.default),
    }))
    // A failed load is not kept, so the next request tries again.
    tokenizer.catch(() => loaded.delete(name))
    loaded.set(name, tokenizer)
  }
  return tokenizer
}
