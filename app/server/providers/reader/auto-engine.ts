import type { ReaderPage } from '~/contracts/reader'
import { BrowserTimeSpent, isRefusal, PageNotRead } from '../../domain/refusals'
import { log } from '../../log'
import type { BrowserPool } from './browser/chromium'

/** A read's answer and the engine that read it (as `PageResult` of `./read-page.ts`). */
interface Read {
  page: ReaderPage
  engine: 'direct' | 'browser'
}

/** Why the browser did not read a page that asked for it, as the answer's warning says it. */
function fallbackWarning(error: unknown): string | undefined {
  if (error instanceof BrowserTimeSpent)
    return error.reason === 'waiting'
      ? 'The page seems to write its text with a script, and too many of your reads wait for the browser engine: read without it'
      : `The page seems to write its text with a script, and your browser time (${error.budgetSeconds} s a minute) is used up: read without the browser, which is yours again in ${Math.max(1, Math.ceil(error.retryAfterSeconds))} s`
  if (error instanceof PageNotRead)
    return `The page seems to write its text with a script, and the browser engine could not read it (${error.detail}): read without it`
  return undefined
}

/**
 * `X-Engine: auto`, the default: the direct read is the answer unless the page most likely writes its text
 * with a script and did not answer an error status (the browser reads only pages that answer 2xx). Then the
 * browser renders it, within the caller's browser time: when that is spent, or the browser fails or runs out
 * of the read's time, the direct read is answered with a warning saying so (never cached) rather than
 * refused, as the caller did not ask for the browser. A server without Chromium answers the direct read.
 */
export async function autoEngine<R extends Read>(
  direct: ReaderPage,
  browser: () => BrowserPool,
  render: (pool: BrowserPool) => Promise<R>,
  signal?: AbortSignal,
): Promise<Read | R> {
  const { scriptBuilt, ...page } = direct
  if (!scriptBuilt || page.warning) return { page, engine: 'direct' }
  let pool: BrowserPool
  try {
    pool = browser()
  } catch {
    return { page, engine: 'direct' }
  }
  try {
    return await render(pool)
  } catch (error) {
    if (signal?.aborted || !isRefusal(error)) throw error
    const warning = fallbackWarning(error)
    if (warning === undefined) throw error
    log('info', 'reader: the browser did not read a page that needed it; answered the direct read', {
      refusal: error.kind,
    })
    return { page: { ...page, warning }, engine: 'direct' }
  }
}
