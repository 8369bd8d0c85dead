/**
 * Pages built to make an HTML converter work hard, as an attack run served them to the reader (issue 26):
 * each is a real shape a hostile or broken site can serve, at the size that stalled the server before.
 */

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

/** A table of `rows` rows under a heading row of `columns` cells (1,000 × 50: 509 KB). */
export function wideTable(rows = 1000, columns = 50): string {
  const head = `<tr>${Array.from({ length: columns }, (_, c) => `<th>Column ${c}</th>`).join('')}</tr>`
  const body = Array.from(
    { length: rows },
    (_, r) => `<tr>${Array.from({ length: columns }, (_, c) => `<td>${(r * columns + c) % 997}</td>`).join('')}</tr>`,
  ).join('\n')
  return page('A wide table', `<table><thead>${head}</thead><tbody>${body}</tbody></table>`)
}

/** `depth` `<div>`s nested in one another around one word (900,000: 9.9 MB). */
export function nestedDivs(depth: number): string {
  return page('Nested', `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`)
}

/** A list of `count` links, each in its own item (40,000: 1.6 MB). */
export function manyLinks(count = 40_000): string {
  const items = Array.from({ length: count }, (_, i) => `<li><a href="/link/${i}">Link number ${i}</a></li>`)
  return page('Links', `<ul>${items.join('')}</ul>`)
}

/** `count` headings side by side, `<h1>` and `<h2>` in turn, none inside another (issue 38: 180,000). */
export function flatHeadings(count: number): string {
  const headings = Array.from({ length: count }, (_, i) => (i % 2 ? `<h2>Part ${i}</h2>` : `<h1>Chapter ${i}</h1>`))
  return page('Flat', headings.join(''))
}

/**
 * Pages built to make the browser engine misbehave, as the attack run of issue 38 served them: each is what
 * a hostile site can serve to a reader that renders it.
 */

/**
 * ICE servers (`stun:`, `turn:` over UDP and TCP, `turns:`) at `host` (an address the reader must not reach),
 * asked for by the page's own RTCPeerConnection and by one re-obtained from a fresh iframe (which a script
 * removing the constructor from the page would miss), plus a WebTransport session (QUIC, over UDP). What the
 * page learns is written into it (`#candidates`), where a reader would read it back.
 */
export function webrtcPage({ host, udpPort, tcpPort }: { host: string; udpPort: number; tcpPort: number }): string {
  const ice = [
    { urls: `stun:${host}:${udpPort}` },
    { urls: `turn:${host}:${udpPort}?transport=udp`, username: 'u', credential: 'p' },
    { urls: `turn:${host}:${tcpPort}?transport=tcp`, username: 'u', credential: 'p' },
    { urls: `turns:${host}:${tcpPort}?transport=tcp`, username: 'u', credential: 'p' },
  ]
  return page(
    'WebRTC',
    `<p>WEBRTC-MARKER: the page itself is read.</p><script>
const found = []
function probe(PC, label) {
  try {
    const pc = new PC({ iceServers: ${JSON.stringify(ice)} })
    pc.createDataChannel('probe')
    pc.onicecandidate = (event) => { if (event.candidate) found.push(label + ' ' + event.candidate.candidate) }
    pc.createOffer().then((offer) => pc.setLocalDescription(offer)).catch((error) => found.push(label + ' ' + error.name))
  } catch (error) { found.push(label + ' ' + error.name) }
}
probe(window.RTCPeerConnection, 'page')
const frame = document.createElement('iframe')
document.body.append(frame)
probe(frame.contentWindow.RTCPeerConnection, 'iframe')
try { new WebTransport('https://${host}:${udpPort}/').ready.catch(() => {}) } catch {}
setTimeout(() => {
  const out = document.createElement('pre')
  out.id = 'candidates'
  out.textContent = 'CANDIDATES ' + found.length + '\\n' + found.join('\\n')
  document.body.append(out)
}, 2500)
</script>`,
  )
}

/** A page that loads, then spins its renderer's main thread for good (nothing the page is asked after answers). */
export function spinningPage(): string {
  return page(
    'Spinning',
    `<p>SPIN-MARKER</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 50))</script>`,
  )
}

/** A page whose image never arrives (`src`: a URL that answers its headers and never its body): no load event. */
export function neverLoadingPage(src: string): string {
  return page('Never loads', `<p>NEVER-LOADS-MARKER</p><img src="${src}">`)
}

/** Typed arrays of 64 MiB, written so they are resident, until `mb` MiB (JavaScript's heap limit does not count them). */
export function typedArraysPage(mb: number): string {
  return page(
    'Typed arrays',
    `<p>TYPED-ARRAYS-MARKER</p><script>
const keep = []
let allocated = 0
function more() {
  for (let i = 0; i < 4 && allocated < ${mb}; i++, allocated += 64) keep.push(new Uint8Array(64 * 1024 * 1024).fill(1))
  document.title = 'Typed arrays ' + allocated + ' MiB'
  if (allocated < ${mb}) setTimeout(more, 0)
  else document.body.insertAdjacentHTML('beforeend', '<p id="allocated">ALLOCATED ' + allocated + ' MiB</p>')
}
more()
</script>`,
  )
}

/** `count` windows opened in a loop, each given a megabyte of text to hold. */
export function popupsPage(count: number): string {
  return page(
    'Popups',
    `<p>POPUPS-MARKER</p><script>
let opened = 0
for (let i = 0; i < ${count}; i++) {
  const popup = window.open('about:blank', '_blank')
  if (!popup) continue
  opened++
  popup.document.write('<p>' + String(i).repeat(1 << 20) + '</p>')
}
document.body.insertAdjacentHTML('beforeend', '<p>OPENED ' + opened + '</p>')
</script>`,
  )
}

/**
 * `height` CSS pixels of random noise, tiled from a 4096 × 256 canvas drawn with `crypto.getRandomValues` (wider
 * than a screenshot and taller than deflate's window, so nothing repeats that a PNG could compress): a pageshot
 * of it at a 3840-pixel viewport is hundreds of megabytes.
 */
export function noisePage(height: number): string {
  return page(
    'Noise',
    `<p>NOISE-MARKER</p><script>
const canvas = document.createElement('canvas')
canvas.width = 4096
canvas.height = 256
const context = canvas.getContext('2d')
const image = context.createImageData(4096, 256)
for (let at = 0; at < image.data.length; at += 65536) crypto.getRandomValues(image.data.subarray(at, at + 65536))
for (let at = 3; at < image.data.length; at += 4) image.data[at] = 255
context.putImageData(image, 0, 0)
document.body.style.cssText = 'margin:0;height:${height}px;background-image:url(' + canvas.toDataURL() + ')'
</script>`,
  )
}
