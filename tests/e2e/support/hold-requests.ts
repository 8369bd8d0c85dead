import type { Page } from 'playwright-core'

/** Requests a page makes for some files, held back until the test releases them. */
export interface HeldRequests {
  /** Whether a matching request is held now (true) or let through at once (false). */
  holding: boolean
  /** How many are held. */
  readonly held: number
  /** Lets the held requests go on, and holds no more until `holding` is set again. */
  release(): Promise<void>
}

/**
 * Holds the page's requests whose address matches `pattern`, in Chromium's own request interception for the
 * addresses that match `glob` alone. Playwright's routing would do it too, but it turns the browser's cache off
 * for every request of the context (and with it the compiled-code cache).
 */
export async function holdRequests(page: Page, glob: string, pattern: RegExp): Promise<HeldRequests> {
  const cdp = await page.context().newCDPSession(page)
  const paused: string[] = []
  const requests: HeldRequests = {
    holding: false,
    get held() {
      return paused.length
    },
    async release() {
      requests.holding = false
      for (const requestId of paused.splice(0)) await cdp.send('Fetch.continueRequest', { requestId })
    },
  }
  cdp.on('Fetch.requestPaused', ({ requestId, request }) => {
    if (requests.holding && pattern.test(request.url)) paused.push(requestId)
    else void cdp.send('Fetch.continueRequest', { requestId })
  })
  await cdp.send('Fetch.enable', { patterns: [{ urlPattern: glob, requestStage: 'Request' }] })
  return requests
}
