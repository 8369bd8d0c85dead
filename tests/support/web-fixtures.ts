import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gzipSync } from 'node:zlib'
import { browserPage } from './browser-pages'
import { circularPdf, garbagePdf, manyPagesPdf, pdfBomb, samplePdf, slowPdf, truncatedPdf } from './pdf'
import {
  manyLinks,
  nestedDivs,
  neverLoadingPage,
  noisePage,
  popupsPage,
  spinningPage,
  typedArraysPage,
  webrtcPage,
  wideTable,
} from './hostile-pages'
import { articlePage, hundredKilobyteArticle, listPage } from './web-pages'

/** One request a fixture server received. */
export interface FixtureHit {
  path: string
  host: string
  /** The address the connection reached (which loopback address served it). */
  localAddress: string
}

export interface WebFixtures {
  port: number
  /** `http://127.0.0.1:<port><path>` (or another host spelling). */
  url(path: string, host?: string): string
  hits: FixtureHit[]
  /** Connections a client (the reader) holds open right now. */
  openConnections(): number
  close(): Promise<void>
}

const html = (response: ServerResponse, body: string, headers: Record<string, string> = {}) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...headers })
  response.end(body)
}
const pdf = (response: ServerResponse, body: Buffer) => {
  response.writeHead(200, { 'content-type': 'application/pdf' })
  response.end(body)
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The pages, by path: see each case for what it serves. */
async function serve(request: IncomingMessage, response: ServerResponse, fixtures: WebFixtures) {
  const url = new URL(request.url ?? '/', 'http://fixture')
  const param = (name: string) => url.searchParams.get(name)
  if (url.pathname.startsWith('/browser/') && browserPage(url.pathname, request, response)) return
  switch (url.pathname) {
    case '/article':
      return html(response, articlePage())
    case '/list':
      return html(response, listPage())
    case '/article-100k':
      return html(response, hundredKilobyteArticle())
    case '/whoami':
      // Which loopback address served the page, so a test sees where the reader connected.
      return html(
        response,
        `<html><head><title>Fixture</title></head><body><p>SERVED-BY ${request.socket.localAddress}</p></body></html>`,
      )
    case '/redirect': {
      response.writeHead(Number(param('status') ?? 302), { location: param('to') ?? '/article' })
      return response.end()
    }
    case '/chain': {
      // `n` more hops on this server, then to `to`.
      const n = Number(param('n') ?? 1)
      const to = param('to') ?? '/article'
      const next = n > 1 ? `/chain?n=${n - 1}&to=${encodeURIComponent(to)}` : to
      response.writeHead(302, { location: next })
      return response.end()
    }
    case '/slow': {
      // The article in parts, `pause` ms apart: a streaming reader sends snapshots between them.
      const page = articlePage({ paragraphs: 40 })
      const parts = Number(param('parts') ?? 4)
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      const size = Math.ceil(page.length / parts)
      for (let i = 0; i < parts; i++) {
        response.write(page.slice(i * size, (i + 1) * size))
        if (i < parts - 1) await sleep(Number(param('pause') ?? 400))
      }
      return response.end()
    }
    case '/stall':
      response.writeHead(200, { 'content-type': 'text/html' })
      response.write('<html><head><title>Never ends</title></head><body><p>Waiting')
      return // never ended: the reader's timeout must end it
    case '/big': {
      response.writeHead(200, { 'content-type': 'text/html' })
      const block = `<p>${'x'.repeat(1023)}</p>`
      for (let i = 0; i < 11 * 1024 && !response.destroyed; i++) {
        if (!response.write(block)) await new Promise((resolve) => response.once('drain', resolve))
      }
      return response.end()
    }
    case '/bomb': {
      // 20 MiB of zeros, compressed to a few KiB: only the decompressed size may count.
      const body = gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x20))
      response.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
      return response.end(body)
    }
    case '/gzip': {
      const body = gzipSync(Buffer.from(articlePage()))
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'gzip' })
      return response.end(body)
    }
    case '/pdf':
      response.writeHead(200, { 'content-type': 'application/pdf' })
      return response.end('%PDF-1.7\n%...')
    case '/robots.txt':
      response.writeHead(200, { 'content-type': 'text/plain' })
      return response.end('User-agent: *\nDisallow: /private\n\nUser-agent: StrictBot\nDisallow: /\nAllow: /plain$\n')
    case '/images-page':
      return html(
        response,
        `<html><head><title>Images</title></head><body><h1>Pictures</h1><p>Some <em>emphasis</em> and <strong>strength</strong>, a <a href="/docs/1">first link</a> and a <a href="/docs/2">second link</a>.</p><ul><li>one</li><li>two</li></ul><hr><p><img src="/images/chart.png" alt="A chart"> <img src="data:image/png;base64,iVBORw0KGgo=" alt="Inline dot"></p><table><thead><tr><th>Model</th><th>Score</th></tr></thead><tbody><tr><td>A</td><td>1</td></tr></tbody></table><p><del>old</del></p></body></html>`,
      )
    case '/summaries-page':
      // An article with the same link twice and images in and around it: what `true` and `all` summarise.
      return html(
        response,
        `<html><head><title>Summaries</title></head><body><nav><img src="/images/logo.png" alt="Logo"> <a href="/">Home</a> <a href="/docs/1">Docs</a></nav><main><article><h1>Summaries in practice</h1><p>${'A reranker reads each candidate with the query and puts the best first, which lifts precision. '.repeat(6)}</p><p><img src="/images/chart.png" alt="A chart"></p><p>Read <a href="/docs/1">the docs</a>, then <a href="/docs/1">the docs again</a>, or <a href="mailto:team@example.org">write</a>.</p><p>${'Each passage is scored against the question, and the order follows the scores. '.repeat(6)}</p></article></main><footer><img src="/images/chart.png" alt="A chart"> <a href="/about">About</a></footer></body></html>`,
      )
    case '/conventions-page':
      // The original's conventions in one page: covering layers (X-Remove-Overlay), links, images with and
      // without a description (numbered), and sections to chunk.
      return html(
        response,
        `<html><head><title>Conventions</title></head><body><div class="cookie-banner">COOKIE-MARKER We use cookies</div><div style="position: fixed; top: 0">FIXED-MARKER Sign up</div><div role="dialog" aria-modal="true">DIALOG-MARKER Subscribe now</div><main><h1>Conventions</h1><p>Intro with <a href="/docs/1">a link</a> and <a href="https://example.org/x">another</a>.</p><p><img src="/images/cat.png" alt="a cat"> <img src="/images/dog.png"></p><h2>Part two</h2><p>${'Second part text. '.repeat(20)}</p><h2>Part three</h2><p>${'Third part text. '.repeat(20)}</p></main></body></html>`,
      )
    case '/sample.pdf':
      return pdf(response, samplePdf())
    case '/image':
      response.writeHead(200, { 'content-type': 'image/png' })
      return response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
    case '/plain':
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      return response.end('PLAIN-MARKER\nJust text, kept as it is.')
    case '/json':
      response.writeHead(200, { 'content-type': 'application/json' })
      return response.end('{"marker":"JSON-MARKER","items":[1,2]}')
    case '/latin1':
      response.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' })
      return response.end(
        Buffer.from(
          '<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e au caf\xe9, servie ti\xe8de.</p></body></html>',
          'latin1',
        ),
      )
    case '/long-text': {
      // `kb` kilobytes of plain text, line after line.
      const line = 'A line of plain text that a long document repeats, word after word.\n'
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
      return response.end(line.repeat(Math.ceil((Number(param('kb') ?? 100) * 1024) / line.length)))
    }
    // Pages that make a converter work hard (./hostile-pages.ts), sized by their query.
    case '/hostile/table':
      return html(response, wideTable(Number(param('rows') ?? 1000), Number(param('columns') ?? 50)))
    case '/hostile/nested':
      return html(response, nestedDivs(Number(param('depth') ?? 5000)))
    case '/hostile/links':
      return html(response, manyLinks(Number(param('count') ?? 40_000)))
    // PDFs of issue 38 (./pdf.ts), sized by their query.
    case '/hostile/pdf-bomb':
      return pdf(response, pdfBomb(Number(param('mib') ?? 300)))
    case '/hostile/pdf-circular':
      return pdf(response, circularPdf())
    case '/hostile/pdf-pages':
      return pdf(response, manyPagesPdf(Number(param('count') ?? 20_000)))
    case '/hostile/pdf-slow':
      return pdf(response, slowPdf(Number(param('pages') ?? 500), Number(param('kb') ?? 100)))
    case '/hostile/pdf-truncated':
      return pdf(response, truncatedPdf())
    case '/hostile/pdf-garbage':
      return pdf(response, garbagePdf())
    // Pages that make the browser engine misbehave (./hostile-pages.ts).
    case '/hostile/webrtc':
      return html(
        response,
        webrtcPage({
          host: param('host') ?? '127.0.0.1',
          udpPort: Number(param('udp') ?? 3478),
          tcpPort: Number(param('tcp') ?? 3478),
        }),
      )
    case '/hostile/spin':
      return html(response, spinningPage())
    case '/hostile/never-loads':
      return html(response, neverLoadingPage('/hostile/never'))
    case '/hostile/never':
      response.writeHead(200, { 'content-type': 'image/png' })
      return // the body never comes
    case '/hostile/typed-arrays':
      return html(response, typedArraysPage(Number(param('mb') ?? 4096)))
    case '/hostile/popups':
      return html(response, popupsPage(Number(param('count') ?? 1000)))
    case '/hostile/noise':
      return html(response, noisePage(Number(param('height') ?? 16_384)))
    case '/status':
      response.writeHead(Number(param('code') ?? 404), { 'content-type': 'text/html' })
      return response.end('<p>Not here</p>')
    default:
      response.writeHead(404, { 'content-type': 'text/plain' })
      return response.end(`no fixture at ${url.pathname} (${fixtures.port})`)
  }
}

/**
 * Web pages on loopback for the reader: one handler listening on each of `addresses` (all loopback) at the
 * same port, so a URL's host spelling decides which listener answers. Every request is recorded in `hits`.
 */
export async function startWebFixtures(addresses: string[] = ['127.0.0.1']): Promise<WebFixtures> {
  const servers: Server[] = []
  let open = 0
  const fixtures: WebFixtures = {
    port: 0,
    hits: [],
    openConnections: () => open,
    url: (path, host = '127.0.0.1') => `http://${host}:${fixtures.port}${path}`,
    async close() {
      for (const server of servers) server.closeAllConnections()
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))))
    },
  }
  for (const address of addresses) {
    const server = createServer((request, response) => {
      fixtures.hits.push({
        path: request.url ?? '',
        host: request.headers.host ?? '',
        localAddress: request.socket.localAddress ?? '',
      })
      serve(request, response, fixtures).catch(() => response.destroy())
    })
    server.on('connection', (socket) => {
      open++
      socket.once('close', () => open--)
    })
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(fixtures.port, address, () => resolve())
    })
    fixtures.port ||= (server.address() as AddressInfo).port
    servers.push(server)
  }
  return fixtures
}
