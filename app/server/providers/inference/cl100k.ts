/**
 * The metering tokenizer's table alone. The reader's converter processes count their pages' tokens with it, and
 * their code is bundled whole (./reader's convert-pool): importing the segmenter's tokenizers there shipped all
 * four tables, 3.5 MB more script that every converter compiled as it started.
 */
import { splitPatterns, tokenizerOver, type TableLoader, type Tokenizer } from './tokenizer'

export const cl100kTable: TableLoader = () =>
  Promise.all([import('gpt-tokenizer/bpeRanks/cl100k_base'), splitPatterns().then((p) => p.CL100K_TOKEN_SPLIT_REGEX)])

export const loadCl100k = (): Promise<Tokenizer> => tokenizerOver('cl100k_base', 'cl100k_base', cl100kTable)
