import type { ReaderPage } from '~/contracts/reader'
import type { PageProblem } from '../../../domain/refusals'
import type { ConversionRequest } from '../convert/convert'

/** What the server sends a converter process: one page at a time. */
export interface ConversionJob {
  id: number
  request: ConversionRequest
}

/** What a converter process sends back: that it is ready (once), then one answer per job. */
export type ThreadMessage =
  | { ready: true }
  | { id: number; page: ReaderPage }
  /** The page was refused (PageNotRead, rebuilt on the server's side). */
  | { id: number; refusal: { problem: PageProblem; detail: string } }
  /** The conversion failed for a reason of its own (a defect): the server logs it and answers 500. */
  | { id: number; failure: string }
