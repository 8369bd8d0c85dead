import { PageNotRead } from '../../../domain/refusals'
import { describeSize } from '../page-rules'

/**
 * Bytes all of one PDF's streams may inflate to while the reader reads it, 10 times a page's download limit:
 * a book of 500 pages inflates to tens of MiB; a compression bomb (300 KB of zeros inflating to 300 MiB, or
 * 10 MiB to 10 GiB) is refused at this point, before it holds the memory.
 */
export const MAX_PDF_INFLATED_BYTES = 100 * 1024 * 1024

/** Where pdf.js, patched in the converters' bundle (build/thread-patches.ts), reports bytes it is about to inflate. */
const REPORT = Symbol.for('reader.pdf-inflating')

type Reporting = typeof globalThis & { [REPORT]?: (bytes: number) => void }

const refusal = () =>
  new PageNotRead(
    'too-large',
    `The PDF's streams inflate to more than ${describeSize(MAX_PDF_INFLATED_BYTES)}, the reader's limit`,
  )

/**
 * Reads one PDF with what its streams inflate to counted, and refuses it (422) past MAX_PDF_INFLATED_BYTES.
 * pdf.js meets the count's error in the middle of a stream and often carries on without that stream (it
 * ignores errors in content it can skip): once past the limit, every stream after fails at its first bytes
 * too, and the read ends with the refusal whatever pdf.js made of it. One PDF at a time per process, as a
 * converter reads them.
 */
export async function withInflationLimit<T>(read: () => Promise<T>): Promise<T> {
  let inflated = 0
  let over = false
  ;(globalThis as Reporting)[REPORT] = (bytes) => {
    inflated += bytes
    if (inflated <= MAX_PDF_INFLATED_BYTES) return
    over = true
    throw refusal()
  }
  try {
    const result = await read()
    if (over) throw refusal()
    return result
  } catch (error) {
    throw over ? refusal() : error
  } finally {
    delete (globalThis as Reporting)[REPORT]
  }
}
