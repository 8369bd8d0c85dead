/**
 * The metering count as the tests' oracle: `gpt-tokenizer`'s own cl100k_base count (special-token text as
 * plain text, as the server counts it), independent of the server's linear encoder it must agree with.
 */
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base'

const asPlainText = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }

export const countTokens = (text: string): number => countCl100k(text, asPlainText)
