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
  options: { maxTokens: number; truncate: boolean; loc: Array<string | number>; maxTotalTokens?: number },
): Promise<MeteredTexts> {
  let tokens = 0
  const kept: string[] = []
  for (const [index, text] of texts.entries()) {
    if (options.maxTotalTokens !== undefined && tokens > options.maxTotalTokens) break
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
  if (options.maxTotalTokens !== undefined && tokens > options.maxTotalTokens) throw tooManyTokens(options)
  return { texts: kept, tokens }
}

/** A request over its total of tokens (counted until past it, so the metering stops there too). */
export function tooManyTokens(options: { loc: Array<string | number>; maxTotalTokens?: number }): InvalidInput {
  return new InvalidInput([
    {
      loc: options.loc,
      msg: `holds more than ${options.maxTotalTokens?.toLocaleString('en-US')} tokens, the limit per request: send the inputs in several requests`,
      type: 'too_long',
    },
  ])
}

export const invalid = (loc: Array<string | number>, msg: string, type = 'invalid') =>
  new InvalidInput([{ loc, msg, type }])
