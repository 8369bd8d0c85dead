import { Parser } from 'htmlparser2'
import { readerLimits } from '~/contracts/reader'
import { PageNotRead } from '../../../domain/refusals'

/** Thrown inside the scan to stop it at the first node over a limit; never leaves this module. */
class OverLimit extends Error {
  constructor(readonly refusal: PageNotRead) {
    super(refusal.detail)
  }
}

const count = (n: number) => n.toLocaleString('en-US')

/**
 * Refuses (422) a page with more nodes (elements, attributes, comments) or deeper nesting than the reader
 * converts in bounded time (`readerLimits`). The steps after this one are not all linear in both: Readability
 * measures the text under each block again for every block around it, and turndown and Readability recurse
 * once per level. This scan is: one pass of the tokenizer linkedom parses with (htmlparser2, so elements it
 * closes implicitly close here too), no tree built, stopping at the first node over a limit.
 */
export function checkPageShape(html: string): void {
  let nodes = 0
  let depth = 0
  const over = (problem: string) => {
    throw new OverLimit(new PageNotRead('too-complex', problem))
  }
  const node = () => {
    if (++nodes > readerLimits.maxNodes)
      over(
        `The page has more than ${count(readerLimits.maxNodes)} elements, attributes and comments, the reader's limit`,
      )
  }
  const parser = new Parser(
    {
      onopentagname() {
        node()
        if (++depth > readerLimits.maxDepth)
          over(`The page nests elements deeper than ${count(readerLimits.maxDepth)} levels, the reader's limit`)
      },
      onattribute: node,
      oncomment: node,
      onclosetag() {
        depth--
      },
    },
    { lowerCaseAttributeNames: false, decodeEntities: false },
  )
  try {
    parser.end(html)
  } catch (error) {
    if (error instanceof OverLimit) throw error.refusal
    throw error
  }
}
