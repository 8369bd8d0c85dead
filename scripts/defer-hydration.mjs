// Prerendered marketing pages are complete HTML: their client runtime (~145 KB gzip) is needed only for what
// the visitor does next. Fetched with the page, its module preloads compete with the first paint on a slow
// phone and its evaluation blocks the main thread; here it starts on the visitor's first interaction or when
// the browser is idle after load, whichever comes first. A click that arrives before the app runs is held and
// replayed once it does, so a menu, a switcher, a form or a link works on the first tap, without a full reload.

/**
 * The loader, inline in the page (its hash joins the page's CSP). `P` lists the module preloads the page had,
 * `E` its entry. Kept self-contained: it runs before anything else of the app exists.
 */
function loader(P, E) {
  const app = document.getElementById('app')
  const triggers = ['pointerdown', 'keydown', 'touchstart', 'focusin', 'wheel']
  let started = false
  let held = null
  const start = () => {
    if (started) return
    started = true
    for (const type of triggers) removeEventListener(type, start, true)
    for (const href of P) {
      const link = document.createElement('link')
      link.rel = 'modulepreload'
      link.href = href
      document.head.append(link)
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
  const idle = () =>
    window.requestIdleCallback ? requestIdleCallback(start, { timeout: 2000 }) : setTimeout(start, 200)
  if (document.readyState === 'complete') idle()
  else addEventListener('load', idle, { once: true })
}

/** The page with its module preloads and entry script replaced by the loader; unchanged if it has no entry. */
export function deferHydration(html) {
  const preloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*\/?>/g)].map((m) => m[1])
  const entry = html.match(/<script type="module" async="" src="([^"]+)"><\/script>/)
  if (!entry) return html
  const script = `<script type="module">(${loader.toString()})(${JSON.stringify(preloads.filter((p) => p !== entry[1]))},${JSON.stringify(entry[1])})</script>`
  return html.replace(/<link rel="modulepreload" href="[^"]+"[^>]*\/?>/g, '').replace(entry[0], () => script)
}
