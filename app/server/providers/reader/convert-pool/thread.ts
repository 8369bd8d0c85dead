/**
 * A converter process's code (bundled whole by build/vite-thread-source.ts and started by ./pool.ts): it
 * converts one page at a time and sends each page, refusal or failure back. Its time and memory are limited
 * by the pool, which ends the process when a page exceeds them.
 */
// First, so that loading the converters already runs at the lower priority.
import './lower-priority'
import { PageNotRead } from '../../../domain/refusals'
import { convertPage, type ConversionRequest } from '../convert/convert'
import { withOutputTokens } from '../convert/output-tokens'
import { convertPdf } from '../convert/pdf'
import type { ConversionJob, ThreadMessage } from './messages'

const post = (message: ThreadMessage) => process.send!(message)

const converted = (request: ConversionRequest) => (request.kind === 'pdf' ? convertPdf(request) : convertPage(request))

async function answer({ id, request }: ConversionJob): Promise<ThreadMessage> {
  try {
    return { id, page: await withOutputTokens(await converted(request), request.options.maxTokens) }
  } catch (error) {
    if (error instanceof PageNotRead) return { id, refusal: { problem: error.problem, detail: error.detail } }
    // The page's shape is checked first (nesting included), so this is a shape the check does not know yet:
    // not necessarily deep (a flat page of 180,000 headings overflowed a call's arguments, issue 38).
    if (error instanceof RangeError && /call stack/i.test(error.message))
      return {
        id,
        refusal: { problem: 'too-complex', detail: 'The page is too complex to convert: it overflowed the stack' },
      }
    return { id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) }
  }
}

// One page at a time: the pool posts the next only after this one is answered.
process.on('message', async (job: ConversionJob) => post(await answer(job)))
// The server went (it closes the channel whichever way it ends): nothing is left to convert for.
process.on('disconnect', () => process.exit(0))

// Compiled and warmed (the tokenizer builds its tables on first use) before the first page is timed.
void answer({
  id: -1,
  request: {
    source: '<p>Ready</p>',
    kind: 'html',
    url: 'http://localhost/',
    options: { format: 'content', withLinks: false, withImages: false },
  },
}).then(() => post({ ready: true }))
