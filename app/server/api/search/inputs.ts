import { InvalidInput } from '../../domain/refusals'
import { measureText } from '../../providers/inference/tokens'

export interface MeteredTexts {
  texts: string[]
  /** Metering tokens of `texts`, as charged. */
  tokens: number
}

/**
 * Counts the texts' tokens (what the caller is charged) and holds each to the engine's input limit: a
 * longer one is cut to it when the caller allowed `truncate`, and refused with a 422 naming it otherwise.
 */
export async function meterTexts(
  texts: string[],
  options: { maxTokens: number; truncate: boolean; loc: Array<string | number> },
): Promise<MeteredTexts> {
  let tokens = 0
  const kept: string[] = []
  for (const [index, text] of texts.entries()) {
    const { tokens: count, cut } = await measureText(text, options.maxTokens)
    if (!cut) {
      tokens += count
      kept.push(text)
      continue
    }
    if (!options.truncate)
      throw new InvalidInput([
        {
          loc: [...options.loc, index],
          msg: `is ${count} tokens long, over the model's limit of ${options.maxTokens}: shorten it or send truncate: true`,
          type: 'too_long',
        },
      ])
    tokens += cut.tokens
    kept.push(cut.text)
  }
  return { texts: kept, tokens }
}

export const invalid = (loc: Array<string | number>, msg: string, type = 'invalid') =>
  new InvalidInput([{ loc, msg, type }])
