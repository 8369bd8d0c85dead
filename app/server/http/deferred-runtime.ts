// A page's HTML is complete: its client runtime (~145 KB gzip on a marketing page, ~200 KB on the dashboard)
// is needed only for what the visitor does next. Fetched with the page, its module preloads compete with the
// first paint on a slow phone, and its evaluation and hydration block the main thread for a second or more
// there. So a page's module preloads and entry script give way to an inline loader that fetches and runs the
// runtime later:
// - a prerendered page (build/prerendered-pages.ts) only prefetches its files once the browser is idle after
//   the first paint, and runs them when something needs them: the visitor's first interaction (a tap, a key, a
//   wheel, a mouse move), a part that cannot work without it coming near the viewport (`data-needs-runtime`:
//   the live demos, the contact form), or stored state the guards must act on at once (a stored language
//   redirects, a stored key is used);
// - a live page (rendered for the request; app/server/http/live-deferral.ts) of the app's own screens (the
//   dashboard, sign-in, the sandbox checkout) is an app the visitor came to use: it runs its runtime once the
//   browser is idle after the first paint (sooner on an interaction), so it becomes interactive without
//   waiting for a tap, yet never competes with what the visitor is about to see; any other live page (the API
//   reference, a marketing page with a query) waits for a need, as a prerendered page does.
// Either way a click that arrives before the app runs is held and replayed once it does, so a menu, a
// switcher, a form or a link works on the first tap, without a full reload.
// Pure string work on Web APIs only: the Node server, the edge Worker and the build all use it.

/**
 * The loader, inline in the page (a prerendered page's CSP allows it by hash, a live page's by the request's
 * nonce). `P` lists the module preloads the page had, `E` its entry, `D` the script with its hydration data
 * (null when the data stays inline in the page), `startAtIdle` whether to start at idle rather than on demand. Kept
 * self-contained (only its text goes into the page): it runs before anything else of the app exists.
 */
export function loader(P: string[], E: string, D: string | null, startAtIdle: boolean): void {
  const app = document.getElementById('app')
  const links = (rel: string, hrefs: string[]) => {
    for (const href of hrefs) {
      const link = document.createElement('link')
      link.rel = rel
      link.href = href
      document.head.append(link)
    }
  }
  const triggers = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel']
  let started = false
  let held: Element | null = null
  let watcher: IntersectionObserver | null = null
  const start = () => {
    if (started) return
    started = true
    for (const type of triggers) removeEventListener(type, start, true)
    if (watcher) watcher.disconnect()
    // Fetched in parallel, not import by import, in case the visitor came before the idle prefetch finished.
    links('modulepreload', P)
    const failed = () => {
      const link = held && held.closest('a[href]')
      if (link) location.assign((link as HTMLAnchorElement).href)
    }
    const run = () => import(E).catch(failed)
    if (!D) return void run()
    // The router's hydration data runs first: a classic script, as it was inline.
    const data = document.createElement('script')
    data.src = D
    data.onload = run
    data.onerror = failed
    document.body.append(data)
  }
  const mounted = () => app && app.getAttribute('data-mounted') === 'true'
  const hold = (event: MouseEvent) => {
    if (mounted() || event.button > 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const clicked = event.target as Element | null
    const target = clicked && clicked.closest && clicked.closest('a[href],button,summary,[role=button],input,label')
    if (!target || target.matches('input:not([type=submit]):not([type=button]):not([type=checkbox]):not([type=radio])'))
      return
    event.preventDefault()
    event.stopImmediatePropagation()
    held = target
    start()
  }
  addEventListener('click', hold, true)
  if (app)
    new MutationObserver((_, observer) => {
      if (!mounted()) return
      observer.disconnect()
      removeEventListener('click', hold, true)
      const target = held
      held = null
      if (target && target.isConnected) (target as HTMLElement).click()
    }).observe(app, { attributes: true, attributeFilter: ['data-mounted'] })
  for (const type of triggers) addEventListener(type, start, { capture: true, passive: true })
  let stored = false
  try {
    stored = localStorage.getItem('user') !== null
  } catch {}
  const prefetch = () => links('prefetch', D ? [D, E, ...P] : [E, ...P])
  const soon = () => ('requestIdleCallback' in window ? requestIdleCallback(start, { timeout: 2000 }) : start())
  // `load` often comes before the first paint has reached the screen: what the loader fetches waits for the
  // paint, so its requests never compete with what the visitor is about to see (nor count against it in the
  // lab's estimate).
  const afterPaint = (then: () => void) => {
    if (!window.PerformanceObserver?.supportedEntryTypes?.includes('paint')) return then()
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return
      observer.disconnect()
      then()
    })
    observer.observe({ type: 'paint', buffered: true })
  }
  const idle = () => {
    if (startAtIdle) {
      afterPaint(soon)
      // A page that reports no paint (a background tab paints nothing) still starts.
      setTimeout(start, 5000)
    } else if (stored) {
      // Stored state the guards must act on (a stored language redirects, a stored key is used).
      return void soon()
    } else afterPaint(() => ('requestIdleCallback' in window ? requestIdleCallback(prefetch) : prefetch()))
    if (window.IntersectionObserver) {
      // The margin of the demos' own observer (app/features/demos/use-near-viewport.ts).
      watcher = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && start(), {
        rootMargin: '200px',
      })
      for (const part of document.querySelectorAll('[data-needs-runtime]')) watcher.observe(part)
    }
  }
  if (document.readyState === 'complete') idle()
  else addEventListener('load', idle, { once: true })
}

/** Start's markup for a page was not what the rewrite expects: the build stops on it, a live page is served as rendered. */
export class RuntimeMarkupNotFound extends Error {
  override name = 'RuntimeMarkupNotFound'
}

interface CatalogHints {
  /** The client chunks of the catalogs (`'messages:de'` → its URL; build/catalog-chunks.ts), empty outside a build. */
  catalogChunks?: Readonly<Record<string, string>>
}

export type DeferOptions = CatalogHints &
  (
    | {
        /** Prerendered at build: the hydration data moves to a file, named by `dataPath` from its content. */
        kind: 'prerendered'
        /** The page, for the error: its file in the build. */
        page: string
        dataPath: (body: string) => string
      }
    | {
        /** Rendered for this request: the hydration data (per request) stays inline. */
        kind: 'live'
        /** The page, for the error: its path. */
        page: string
        /** An app screen's runtime starts at idle after the first paint; another page's waits for a need. */
        startAtIdle: boolean
        /** The request's CSP nonce, which Start stamped on its own scripts: the loader carries it too. */
        nonce: string
      }
  )

export interface Deferred {
  html: string
  /** A prerendered page's hydration data, to serve at `path`. */
  data?: { path: string; body: string }
}

// Start renders each with the request's nonce last, as in `<script type="module" async="" src="…" nonce="…">`; the
// build strips the prerenderer's fixed nonce before it gets here.
const preloadTag = /<link rel="modulepreload" href="([^"]+)"[^>]*\/?>/g
const entryTag = /<script type="module" async="" src="([^"]+)"(?: nonce="[^"]*")?><\/script>/
const streamPart = /<script(?: nonce="[^"]*")? data-tsr-stream-part="">([\s\S]*?)<\/script>/g
const htmlTag = /<html\b[^>]*>/

/**
 * The chunks of the catalogs the page reads (its `lang`, and the `data-catalogs` app/routes/__root.tsx writes):
 * not in its hydration data, they are fetched with its modules, so the entry finds them there before it hydrates.
 */
export function catalogUrls(html: string, chunks: Readonly<Record<string, string>>): string[] {
  const tag = html.match(htmlTag)?.[0] ?? ''
  const lang = tag.match(/\blang="([^"]+)"/)?.[1]
  if (!lang) return []
  const names = ['messages', ...(tag.match(/\bdata-catalogs="([^"]*)"/)?.[1].split(' ') ?? [])]
  return names.flatMap((name) => chunks[`${name}:${lang}`] ?? [])
}

/**
 * The page with its module preloads and entry script replaced by the loader, which fetches them with the chunks
 * of the page's catalogs (never part of its hydration data). A prerendered page's hydration data moves to a
 * file of its own, `data`, which the loader fetches at idle and runs before the app. Every piece of markup it
 * rewrites must be there: if Start renders its entry, preloads or stream parts differently, this throws
 * RuntimeMarkupNotFound naming the page and what is missing, instead of leaving the runtime eager unnoticed.
 */
export function deferRuntime(html: string, options: DeferOptions): Deferred {
  const changed = (what: string) =>
    new RuntimeMarkupNotFound(
      `[deferred-runtime] ${options.page}: ${what} not found; Start's markup changed, update app/server/http/deferred-runtime.ts`,
    )
  const entry = html.match(entryTag)
  if (!entry) throw changed('the entry script (<script type="module" async="" src=…>)')
  const preloads = [...html.matchAll(preloadTag)].map((m) => m[1]!)
  if (!preloads.length) throw changed('the module preloads (<link rel="modulepreload">)')
  let deferred = html.replace(preloadTag, '')
  let data: Deferred['data']
  if (options.kind === 'prerendered') {
    const parts = [...html.matchAll(streamPart)]
    if (!parts.length) throw changed('the router hydration data (<script data-tsr-stream-part="">)')
    const body = parts.map((part) => part[1]).join('\n;')
    data = { path: options.dataPath(body), body }
    for (const [part] of parts) deferred = deferred.replace(part, '')
  }
  const live = options.kind === 'live'
  const modules = [...catalogUrls(html, options.catalogChunks ?? {}), ...preloads.filter((p) => p !== entry[1])]
  const args = [modules, entry[1], data?.path ?? null, live && options.startAtIdle]
  const nonce = live ? ` nonce="${options.nonce}"` : ''
  const script = `<script type="module"${nonce}>(${loader.toString()})(${args.map((arg) => JSON.stringify(arg)).join(',')})</script>`
  return { html: deferred.replace(entry[0], () => script), ...(data && { data }) }
}
