// Prerendered marketing pages are complete HTML: their client runtime (~145 KB gzip) is needed only for what
// the visitor does next. Fetched with the page, its module preloads compete with the first paint on a slow
// phone, and its evaluation and hydration block the main thread for a second or more there. So the runtime's
// files are only fetched (not run) once the browser is idle after load, and the runtime starts when something
// needs it: the visitor's first interaction (a tap, a key, a wheel, a mouse move), a part that cannot work
// without it coming into view (`data-needs-runtime`: the live demos), or a stored setting or `s` parameter
// the guards must act on at once (a stored language redirects, a stored key is used). A click that arrives
// before the app runs is held and replayed once it does, so a menu, a switcher, a form or a link works on the
// first tap, without a full reload.

/**
 * The loader, inline in the page (its hash joins the page's CSP). `P` lists the module preloads the page had,
 * `E` its entry. Kept self-contained: it runs before anything else of the app exists.
 */
function loader(P, E) {
  const app = document.getElementById('app')
  const triggers = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'focusin', 'wheel']
  let started = false
  let held = null
  let watcher = null
  const start = () => {
    if (started) return
    started = true
    for (const type of triggers) removeEventListener(type, start, true)
    if (watcher) watcher.disconnect()
    // The router's hydration data, held back as text so the page does not compile and run it unless the app
    // starts; inserted in place, each runs at once (its hash is in the page's CSP) and finds its siblings as before.
    for (const held of document.querySelectorAll('script[type="text/x-deferred"]')) {
      const script = document.createElement('script')
      for (const { name, value } of held.attributes) if (name !== 'type') script.setAttribute(name, value)
      script.text = held.text
      held.replaceWith(script)
    }
    import(E).catch(() => held && held.closest('a[href]') && location.assign(held.closest('a[href]').href))
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
  const prefetch = () => {
    for (const href of [E, ...P]) {
      const link = document.createElement('link')
      link.rel = 'prefetch'
      link.href = href
      document.head.append(link)
    }
  }
  const idle = () => {
    if (stored || /[?&]s=/.test(location.search))
      return window.requestIdleCallback ? requestIdleCallback(start, { timeout: 2000 }) : start()
    if (window.requestIdleCallback) requestIdleCallback(prefetch)
    else prefetch()
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
 * The page with its module preloads and entry script replaced by the loader and the router's hydration data
 * (a script of ~60 KB carrying the locale's messages) made inert until then; unchanged if it has no entry.
 */
export function deferHydration(html) {
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*\/?>/g)].map((m) => m[1])
  const entry = html.match(/<script type="module" async="" src="([^"]+)"><\/script>/)
  if (!entry) return html
  const script = `<script type="module">(${loader.toString()})(${JSON.stringify(preloads.filter((p) => p !== entry[1]))},${JSON.stringify(entry[1])})</script>`
  return html
    .replace(/<link rel="modulepreload" href="[^"]+"[^>]*\/?>/g, '')
    .replaceAll('<script data-tsr-stream-part="">', '<script type="text/x-deferred" data-tsr-stream-part="">')
    .replace(entry[0], () => script)
}
