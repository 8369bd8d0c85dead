import type { IncomingMessage, ServerResponse } from 'node:http'

/**
 * Pages that need a browser to be read (their text is built by scripts, kept in shadow roots or iframes),
 * and one whose every request points where a reader must never go. Served under /browser/ by the web fixtures.
 */
const page = (title: string, body: string, head = '') =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body>${body}</body></html>`

const scriptedParagraphs = Array.from(
  { length: 6 },
  (_, i) =>
    `<p>SCRIPT-RENDERED paragraph ${i + 1}: a page that builds its text in the browser reads as empty to a plain fetch.</p>`,
).join('')

/** A site's header and footer as a server writes them around an app it leaves to its script: enough text to pass 200 characters. */
const siteChrome = {
  header: `<header><a href="/">NAV-MARKER Home</a> <a href="/products">Products and pricing for every team</a> <a href="/docs">Documentation, guides and the API reference</a> <a href="/blog">The blog: news, launches and engineering notes</a></header>`,
  footer: `<footer><p>FOOTER-MARKER: company, careers, press, legal notices, privacy policy, terms of service, security and the status page.</p></footer>`,
}

/** A script that writes the SCRIPT-RENDERED paragraphs into `selector` once the document is parsed. */
const writeInto = (selector: string) =>
  `<script>addEventListener('DOMContentLoaded', () => { document.querySelector(${JSON.stringify(selector)}).innerHTML = ${JSON.stringify(
    `<h1>Rendered by a script</h1>${scriptedParagraphs}`,
  )} })</script>`

export function browserPage(path: string, request: IncomingMessage, response: ServerResponse): boolean {
  const url = new URL(request.url ?? '/', 'http://fixture')
  const send = (body: string, status = 200) => {
    response.writeHead(status, { 'content-type': 'text/html; charset=utf-8' })
    response.end(body)
  }
  switch (path) {
    case '/browser/js':
      send(
        page(
          'Scripted page',
          `<main id="app"></main><script>document.getElementById('app').innerHTML = ${JSON.stringify(
            `<h1>Rendered by a script</h1>${scriptedParagraphs}`,
          )}</script>`,
        ),
      )
      return true
    case '/browser/loading':
      // Server-written chrome around an app root that says "Loading…" until its script runs.
      send(
        page(
          'Loading page',
          `${siteChrome.header}<div id="root"><p>Loading…</p></div>${siteChrome.footer}${writeInto('#root')}`,
        ),
      )
      return true
    case '/browser/noscript':
      // No app root by a known name: the noscript line asking for JavaScript says the page needs a browser.
      send(
        page(
          'Noscript page',
          `<noscript>You need to enable JavaScript to run this app.</noscript>${siteChrome.header}<section class="feed"></section>${siteChrome.footer}${writeInto('.feed')}`,
        ),
      )
      return true
    case '/browser/static':
      // Tiny and without any script: a browser would show exactly this, so the direct read is the answer.
      send(page('Static page', '<p>STATIC-MARKER: a short page with no script.</p>'))
      return true
    case '/browser/late':
      // The text arrives 700 ms after the load event: only a reader that waits for #late sees it.
      send(
        page(
          'Late page',
          `<p>EARLY-MARKER</p><script>addEventListener('load', () => setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; p.textContent = 'LATE-MARKER arrived'; document.body.append(p) }, 700))</script>`,
        ),
      )
      return true
    case '/browser/shadow':
      send(
        page(
          'Shadow page',
          `<p>LIGHT-MARKER</p><shadow-card></shadow-card><script>customElements.define('shadow-card', class extends HTMLElement { connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '<h2>Inside the shadow</h2><p>SHADOW-MARKER text</p>' } })</script>`,
        ),
      )
      return true
    case '/browser/iframe':
      send(page('Framed page', `<p>OUTER-MARKER</p><iframe src="/browser/framed"></iframe>`))
      return true
    case '/browser/relative':
      send(page('Relative', `<p>A <a href="docs/1">relative link</a> in a page under /browser/.</p>`))
      return true
    case '/browser/framed':
      send(page('Frame', `<p>IFRAME-MARKER inside the frame</p>`))
      return true
    case '/browser/echo':
      // What the page's server was sent, and what the page's script sees.
      send(
        page(
          'Echo',
          `<p>UA=${request.headers['user-agent'] ?? ''}</p><p>LANG=${request.headers['accept-language'] ?? ''}</p><p>REF=${request.headers.referer ?? ''}</p><p>COOKIE=${request.headers.cookie ?? ''}</p><p id="js"></p><script>document.getElementById('js').textContent = 'JS-LANG=' + navigator.language + ' JS-COOKIE=' + document.cookie</script>`,
        ),
      )
      return true
    case '/browser/tall':
      send(
        page(
          'Tall page',
          `<div style="height:${Number(url.searchParams.get('height') ?? 3000)}px;background:linear-gradient(#fff,#00f)"><p>TALL-MARKER</p></div>`,
          '<style>html,body,p{margin:0}</style>',
        ),
      )
      return true
    case '/browser/hostile': {
      // Every way a page can make a request, each aimed at `to` (a comma-separated list of origins a reader must not reach).
      const targets = (url.searchParams.get('to') ?? '').split(',').filter(Boolean)
      const attempts = targets
        .map(
          (origin, i) => `
<script src="${origin}/ssrf/script-${i}.js"></script>
<img src="${origin}/ssrf/img-${i}.png">
<iframe src="${origin}/ssrf/iframe-${i}"></iframe>
<link rel="stylesheet" href="${origin}/ssrf/style-${i}.css">
<link rel="prefetch" href="${origin}/ssrf/prefetch-${i}">
<link rel="preconnect" href="${origin}">
<iframe src="/redirect?to=${encodeURIComponent(`${origin}/ssrf/redirect-${i}`)}"></iframe>
<script>
fetch(${JSON.stringify(`${origin}/ssrf/fetch-${i}`)}).catch(() => {});
fetch('/redirect?to=' + encodeURIComponent(${JSON.stringify(`${origin}/ssrf/fetch-redirect-${i}`)})).catch(() => {});
(() => { const x = new XMLHttpRequest(); x.open('GET', ${JSON.stringify(`${origin}/ssrf/xhr-${i}`)}); x.send() })();
navigator.sendBeacon(${JSON.stringify(`${origin}/ssrf/beacon-${i}`)}, 'x');
try { new WebSocket(${JSON.stringify(`${origin.replace(/^http/, 'ws')}/ssrf/ws-${i}`)}) } catch {}
new EventSource(${JSON.stringify(`${origin}/ssrf/sse-${i}`)});
</script>`,
        )
        .join('')
      send(
        page(
          'Hostile page',
          `<p>HOSTILE-MARKER: the page itself is read.</p>
<iframe src="file:///etc/passwd"></iframe>
<iframe src="chrome://version"></iframe>
<a id="dl" href="/ssrf/download" download>download</a>
<script>
if (navigator.serviceWorker) navigator.serviceWorker.register('/ssrf/sw.js').catch(() => {});
document.getElementById('dl').click();
</script>
${attempts}`,
        ),
      )
      return true
    }
    default:
      return false
  }
}
