import { connect } from 'node:net'
import { describe, expect, inject, it } from 'vitest'
import { serverFnId } from './support/server-fn-id'

const baseUrl = inject('baseUrl')
const sameSite = { origin: 'http://localhost:3000', 'sec-fetch-site': 'same-origin' }
const contactFn = `/_serverFn/${serverFnId('contact.functions', 'submitContactLead')}`

/**
 * Streams a chunked body of up to `total` bytes without Content-Length over a raw socket, honouring
 * backpressure, until the server answers or closes. Returns the status and how many bytes the server
 * let us send. A raw socket keeps the answer even when the server closes while we are still writing.
 */
function chunkedPost(path: string, headers: Record<string, string>, total: number) {
  return new Promise<{ status: number; sent: number; body: string }>((resolve) => {
    const url = new URL(path, baseUrl)
    const socket = connect(Number(url.port), url.hostname)
    let sent = 0
    let received = ''
    let stopped = false
    socket.on('data', (data) => {
      received += data
      stopped = true
    })
    socket.on('error', () => (stopped = true))
    socket.on('close', () => {
      const [head, body = ''] = received.split('\r\n\r\n')
      const chunked = /transfer-encoding: chunked/i.test(head)
      resolve({
        status: Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]),
        sent,
        body: chunked ? body.split('\r\n')[1] : body,
      })
    })
    const lines = Object.entries({ ...headers, host: url.host, 'transfer-encoding': 'chunked', connection: 'close' })
    socket.write(`POST ${url.pathname} HTTP/1.1\r\n${lines.map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`)
    const chunk = Buffer.concat([Buffer.from('4000\r\n'), Buffer.alloc(0x4000, 'a'), Buffer.from('\r\n')])
    // One chunk a turn of the event loop, so the answer is read as soon as it arrives: a client still writing
    // after the server closes gets a reset, which discards what it had not read yet.
    const pump = () => {
      if (stopped) return
      if (sent >= total) return void socket.write('0\r\n\r\n')
      sent += 0x4000
      if (!socket.write(chunk)) socket.once('drain', () => setImmediate(pump))
      else setImmediate(pump)
    }
    pump()
  })
}

describe('hostile request bodies', () => {
  const total = 50 * 1024 * 1024

  it.each([
    ['a REST route', '/api/v1/api_key/empty', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['a server function', contactFn, { 'content-type': 'application/json', ...sameSite }],
  ])('stops reading a chunked 50 MB body to %s at the limit and answers 413', async (_name, path, headers) => {
    // A client still writing when the server closes may get a reset that discards the 413 it was sent
    // (any server that stops reading does this), so up to five tries to read it; never more than the limit.
    for (let attempt = 1; ; attempt++) {
      const { status, sent, body } = await chunkedPost(path, headers, total)
      // Socket buffers let some megabytes through before backpressure; the whole 50 MB never is.
      expect(sent).toBeLessThan(total / 5)
      if (Number.isNaN(status) && attempt < 5) continue
      expect(status).toBe(413)
      expect(JSON.parse(body)).toEqual({ detail: 'Request body too large' })
      break
    }
  })

  it('answers a server function call it cannot decode with 400 {detail}, and an unknown one with 404', async () => {
    const post = (path: string, body: string) =>
      fetch(new URL(path, baseUrl), {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...sameSite },
        body,
      })
    for (const body of ['garbage', '', '{}', '{"t":{"a":1}}', '[1,2']) {
      const answer = await post(contactFn, body)
      expect(answer.status, body).toBe(400)
      expect(await answer.json()).toEqual({ detail: 'Malformed server function call' })
    }
    const unknown = await post('/_serverFn/not-a-function', '{}')
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ detail: 'Unknown server function' })
  })

  it('sends a news slug no post has, however long, to the landing page rather than failing', async () => {
    for (const slug of ['no-such-post', 'a'.repeat(300)]) {
      const answer = await fetch(new URL(`/news/${slug}`, baseUrl), { redirect: 'manual' })
      expect(answer.status, slug.slice(0, 20)).toBe(307)
      expect(new URL(answer.headers.get('location')!, baseUrl).pathname).toBe('/')
    }
  })
})
