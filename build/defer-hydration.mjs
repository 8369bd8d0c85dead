import { createHash } from 'node:crypto'

// Prerendered marketing pages are complete HTML: their client runtime (~145 KB gzip) is needed only for what
// the visitor does next. Fetched with the page, its module preloads compete with the first paint on a slow
// phone, and its evaluation and hydration block the main thread for a second or more there. So the runtime's
// files are only fetched (not run) once the browser is idle after load, and the runtime starts when something
// needs it: the visitor's first interaction (a tap, a key, a wheel, a mouse move), a part that cannot work
// without it coming near the viewport (`data-needs-runtime`: the live demos, the contact form), or stored
// state the guards must act on at once (a stored language redirects, a stored key is used). A click that
// arrives before the app runs is held and replayed once it does, so a menu, a switcher, a form or a link
// works on the first tap, without a full reload.

/**
 * The loader, inline in the page (its hash joins the page's CSP). `P` lists the module preloads the page had,
 * `E` its entry, `D` the script with its hydration data (or null). Kept self-contained: it runs before
 * anything else of the app exists.
 */
function loader(P, E, D) {
  const app = document.getElementById('app')
  const links = (rel, hrefs) => {
    for (const href of hrefs) {
      const link = document.createElement('link')
      link.rel = rel
      link.href = href
      document.head.append(link)
    }
  }
  const triggers = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel']
  let started = false
  let held = null
  let watcher = null
  const start = () => {
    if (started) return
    started = true
    for (const type of triggers) removeEventListener(type, start, true)
    if (watcher) watcher.disconnect()
    // Fetched in parallel, not import by import, in case the visitor came before the idle prefetch finished.
    links('modulepreload', P)
    const failed = () => held && held.closest('a[href]') && location.assign(held.closest('a[href]').href)
    const run = () => import(E).catch(failed)
    if (!D) return run()
    // The router's hydration data runs first: a classic script, as it was inline.
    const data = document.createElement('script')
    data.src = D
    data.onload = run
    data.onerror = failed
    document.body.append(data)
  }
  const mounted = () => app && app.getAttribute('data-mounted') === 'true'
  const hold = (event) => {
    if (mounted() || event.button > 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
    const target = event.target.closest && event.target.closest('a[href],button,summary,[role=button],input,label')
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
      if (target && target.isConnected) target.click()
    }).observe(app, { attributes: true, attributeFilter: ['data-mounted'] })
  for (const type of triggers) addEventListener(type, start, { capture: true, passive: true })
  let stored = false
  try {
    stored = localStorage.getItem('user') !== null
  } catch {}
  const prefetch = () => links('prefetch', D ? [D, E, ...P] : [E, ...P])
  // `load` often comes before the first paint has reached the screen: the prefetch waits for the paint, so its
  // requests never compete with what the visitor is about to see (nor count against it in the lab's estimate).
  const afterPaint = (then) => {
    if (!window.PerformanceObserver?.supportedEntryTypes?.includes('paint')) return then()
    const observer = new PerformanceObserver((list) => {
      if (!list.getEntriesByName('first-contentful-paint').length) return
      observer.disconnect()
      then()
    })
    observer.observe({ type: 'paint', buffered: true })
  }
  // A URL with a query renders live, never through this loader: only stored state asks for an early start.
  const idle = () => {
    if (stored) return window.requestIdleCallback ? requestIdleCallback(start, { timeout: 2000 }) : start()
    afterPaint(() => (window.requestIdleCallback ? requestIdleCallback(prefetch) : prefetch()))
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

/**
 * The page with its module preloads and entry script replaced by the loader, and the router's hydration data
 * (inline scripts of ~60 KB carrying the locale's messages, two thirds of the compressed page) moved to a file
 * of its own, `data`, which the loader fetches at idle and runs before the app. Every piece of markup it
 * rewrites must be there: if Start renders its entry, preloads or stream parts differently, the build stops
 * with the page's name (`file`) instead of shipping pages that load the runtime eagerly.
 */
export function deferHydration(html, file = 'a prerendered page') {
  const changed = (what) =>
    new Error(`[defer-hydration] ${file}: ${what} not found; Start's markup changed, update build/defer-hydration.mjs`)
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*\/?>/g)].map((m) => m[1])
  const entry = html.match(/<script type="module" async="" src="([^"]+)"><\/script>/)
  if (!entry) throw changed('the entry script (<script type="module" async="" src=…>)')
  if (!preloads.length) throw changed('the module preloads (<link rel="modulepreload">)')
  const parts = [...html.matchAll(/<script data-tsr-stream-part="">([\s\S]*?)<\/script>/g)]
  if (!parts.length) throw changed('the router hydration data (<script data-tsr-stream-part="">)')
  const body = parts.map((part) => part[1]).join('\n;')
  const data = { path: `/_hydration/${createHash('sha256').update(body).digest('base64url').slice(0, 22)}.js`, body }
  const args = [preloads.filter((p) => p !== entry[1]), entry[1], data.path].map((arg) => JSON.stringify(arg))
  const script = `<script type="module">(${loader.toString()})(${args.join(',')})</script>`
  let deferred = html.replace(/<link rel="modulepreload" href="[^"]+"[^>]*\/?>/g, '')
  for (const [part] of parts) deferred = deferred.replace(part, '')
  return { html: deferred.replace(entry[0], () => script), data }
}
