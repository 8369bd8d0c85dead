import { InvalidInput } from '../../domain/refusals'

/** Letters, digits and a few separators, up to 64: a tag is a label to group by, not a place for data. */
const TAG = /^[A-Za-z0-9][A-Za-z0-9._:/@+=-]{0,63}$/

/**
 * `metadata.tag` of a body that carries OpenAI's `metadata` map (chat completions, responses): the same tag for
 * clients that set metadata and no headers. The header, when sent too, is the one kept.
 */
export function metadataTagOf(body: object): string | undefined {
  const tag = ((body as { metadata?: unknown }).metadata as { tag?: unknown } | null | undefined)?.tag
  if (tag === undefined || tag === null) return undefined
  return checkedTag(typeof tag === 'string' ? tag : '', ['body', 'metadata', 'tag'])
}

/** `tag` if it is one (else refused with 422 at `loc`). */
export function checkedTag(tag: string, loc: string[]): string {
  if (!TAG.test(tag))
    throw new InvalidInput([
      {
        loc,
        msg: 'must be 1 to 64 characters: letters, digits and . _ : / @ + = -, starting with a letter or digit',
        type: 'value_error',
      },
    ])
  return tag
}
