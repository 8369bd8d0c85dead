import catalogChunks from 'virtual:catalog-chunks'
import { log } from '../log'
import { deferRuntime, RuntimeMarkupNotFound } from './deferred-runtime'

/**
 * A page rendered for this request (the dashboard, the API reference, any URL with a query) defers its
 * client runtime as the prerendered pages do (./deferred-runtime.ts): its module preloads and entry in the
 * head would otherwise compete with the first paint, and its hydration block the main thread while the
 * visitor reads what the HTML already shows. The app's own screens start it once the browser is idle after
 * that paint; other pages, to be read, wait for a need as prerendered ones do (started at idle, a marketing
 * page with a query scored 97-99 with 80-185 ms of blocking time, against 100 prerendered). Its hydration data
 * stays inline (it is this request's); the loader carries the request's nonce, as Start's scripts do.
 */

/** The app's own screens, in any locale: a visitor came to use them, so their runtime starts unasked. */
const appScreen = /^(?:\/[a-z]{2}(?:-[A-Za-z]{2})?)?\/(?:api-dashboard|sign-in|sandbox-checkout)(?:\/|$)/

export const startsAtIdle = (path: string) => appScreen.test(path)

/** Warned once per process: every page would repeat it. */
let warned = false

/**
 * Whether an answer is a page whose runtime this can defer: HTML with a body not yet encoded (compression
 * comes after, app/start.ts), and not a prerendered copy (those come deferred from the build).
 */
function deferrable(response: Response): boolean {
  return (
    response.body !== null &&
    response.status !== 204 &&
    response.status !== 304 &&
    /^text\/html\b/.test(response.headers.get('content-type') ?? '') &&
    !response.headers.has('content-encoding') &&
    !response.headers.has('x-prerendered')
  )
}

/**
 * The live page `response` with its runtime deferred under `nonce`. A page whose markup is not what the rewrite
 * expects is served as rendered, with a warning once: a run-time rewrite must never break a page (the build's
 * prerendered pages are where a changed markup fails loudly). A page that loads no module at all (an error
 * page without the app) has nothing to defer and passes silently.
 */
export async function withDeferredRuntime(response: Response, nonce: string, page: string): Promise<Response> {
  if (!deferrable(response)) return response
  const rendered = await response.text()
  let html = rendered
  if (rendered.includes('type="module"') || rendered.includes('rel="modulepreload"')) {
    try {
      html = deferRuntime(rendered, { kind: 'live', page, nonce, startAtIdle: startsAtIdle(page), catalogChunks }).html
    } catch (error) {
      if (!(error instanceof RuntimeMarkupNotFound)) throw error
      if (!warned) log('warn', 'live page served with its runtime not deferred', { page, reason: error.message })
      warned = true
    }
  }
  const body = new TextEncoder().encode(html)
  const headers = new Headers(response.headers)
  headers.set('content-length', String(body.byteLength))
  // A validator of what was rendered no longer names what is sent (live pages carry none today).
  if (html !== rendered) headers.delete('etag')
  return new Response(body, { status: response.status, statusText: response.statusText, headers })
}

/** For tests: the next unfound markup warns again. */
export function resetDeferralWarning(): void {
  warned = false
}
