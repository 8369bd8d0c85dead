import { existsSync } from 'node:fs'
import type { Browser } from 'playwright-core'
import type { ServerEnv } from '../../../env'
import { errorFields, log } from '../../../log'
import { ChromiumWatch } from './processes'

/**
 * Where Debian puts Chromium when CHROMIUM_PATH is unset: its headless shell first (`apt-get install
 * chromium-headless-shell`, the engine without the desktop browser around it, which renders the same pages for
 * about two thirds of the processor time), then the full browser (`apt-get install chromium`).
 */
export const DEFAULT_CHROMIUMS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium']

export type BrowserSettings = Pick<
  ServerEnv,
  'CHROMIUM_PATH' | 'READER_BROWSER_PAGES' | 'READER_BROWSER_MEMORY_MB' | 'READER_BROWSER_RECYCLE_PAGES'
> &
  // Without them (internal use, tests), a caller may use every slot for as long as it likes.
  Partial<
    Pick<ServerEnv, 'READER_BROWSER_PAGES_PER_CALLER' | 'READER_BROWSER_SECONDS_PER_MINUTE' | 'READER_SHOT_MAX_MB'>
  >

/** The Chromium this server would start, or undefined when there is none (the browser options then answer 501). */
export function chromiumPathOf(env: Pick<ServerEnv, 'CHROMIUM_PATH'>): string | undefined {
  return (env.CHROMIUM_PATH ? [env.CHROMIUM_PATH] : DEFAULT_CHROMIUMS).find((path) => existsSync(path))
}

/**
 * The flags every launch gets. The host resolver answers no name and no address, so Chromium itself can
 * reach nothing: every request a page makes is fulfilled by the reader (`./guard.ts`), with the reader's
 * address rules, or fails. WebRTC would send UDP (STUN, TURN) to any address a page names, IP literals
 * included, which no resolver sees: it may use only a proxy's UDP, and there is no proxy, so it sends nothing
 * (the headless shell reads the first flag, the full browser the second; TURN over TCP meets the resolver).
 * QUIC (and WebTransport over it) is off, and a page can open no window: `window.open` answers null. The rest
 * keep a headless browser from calling home.
 */
function launchArgs(memoryMb: number): string[] {
  return [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--block-new-web-contents',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-dev-shm-usage',
    '--host-resolver-rules=MAP * ~NOTFOUND',
    `--js-flags=--max-old-space-size=${memoryMb}`,
  ]
}

/** Playwright's defaults this engine does without: popups stay blocked (each window is a page's memory again). */
const DROPPED_DEFAULTS = ['--disable-popup-blocking']

/** A started Chromium and the watch on its processes. */
export interface Running {
  browser: Browser
  watch: ChromiumWatch
}

/**
 * Starts Chromium with the flags above, its processes watched from the start and lowered below the server
 * (`./processes.ts`); `gone` is called when it exits or is killed.
 */
export async function launchChromium(
  executablePath: string,
  settings: BrowserSettings,
  gone: () => void,
): Promise<Running> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({
    executablePath,
    args: launchArgs(settings.READER_BROWSER_MEMORY_MB),
    ignoreDefaultArgs: DROPPED_DEFAULTS,
    headless: true,
  })
  const watch = new ChromiumWatch(await browser.newBrowserCDPSession(), {
    memoryMb: settings.READER_BROWSER_MEMORY_MB,
    pages: settings.READER_BROWSER_PAGES,
  })
  browser.on('disconnected', () => {
    watch.end()
    gone()
  })
  await watch
    .lowerPriority()
    .catch((error: unknown) => log('warn', 'browser priority not lowered', { error: errorFields(error) }))
  return { browser, watch }
}

/**
 * Loads Playwright (a bundle of some 80,000 lines) as the server starts, when there is a Chromium to drive:
 * loaded by the first browser read instead, it held the event loop about 220 ms under the first visitors.
 */
export function preloadBrowserEngine(env: Pick<ServerEnv, 'CHROMIUM_PATH'>): void {
  if (chromiumPathOf(env))
    import('playwright-core').catch((error: unknown) =>
      log('warn', 'the browser engine did not load', { error: errorFields(error) }),
    )
}
