import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer as createHttpServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { connect, createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What a proxy was asked: `GET http://…` forwarded, `CONNECT host:port`, or a SOCKS5 `CONNECT host:port`. */
export interface ProxyHit {
  kind: 'forward' | 'connect' | 'socks5'
  target: string
  /** The Proxy-Authorization (HTTP) or `user:password` (SOCKS5) the client sent. */
  auth?: string
}

export interface LoopbackProxy {
  url: string
  port: number
  hits: ProxyHit[]
  close(): Promise<void>
}

/** A self-signed certificate for these names and addresses (openssl, as Debian ships it), its key and PEM. */
export function selfSignedCertificate(names: string[], addresses: string[]): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'proxy-cert-'))
  try {
    const san = [...names.map((n) => `DNS:${n}`), ...addresses.map((a) => `IP:${a}`)].join(',')
    writeFileSync(
      join(dir, 'openssl.cnf'),
      `[req]\ndistinguished_name=dn\nx509_extensions=ext\nprompt=no\n[dn]\nCN=${names[0]}\n[ext]\nsubjectAltName=${san}\nbasicConstraints=critical,CA:TRUE\n`,
    )
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-config',
        join(dir, 'openssl.cnf'),
      ],
      { stdio: 'ignore' },
    )
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const listen = (server: Server | ReturnType<typeof createTcpServer>, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, host, () => resolve((server.address() as AddressInfo).port))
  })

const closer = (server: Server | ReturnType<typeof createTcpServer>, sockets: Set<Socket>) => () =>
  new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy()
    server.close(() => resolve())
  })

/**
 * An HTTP forward proxy on `host` (over TLS when `tls` is given): absolute-form requests are forwarded, CONNECT
 * opens a tunnel; `hosts` is the proxy's own name table (it resolves the names it forwards to). With `auth` (`user:password`) it answers 407 to a request without those credentials.
 */
export async function startHttpProxy(
  host: string,
  options: { tls?: { key: string; cert: string }; auth?: string; hosts?: Record<string, string> } = {},
): Promise<LoopbackProxy> {
  const hits: ProxyHit[] = []
  const sockets = new Set<Socket>()
  const expected = options.auth && `Basic ${Buffer.from(options.auth).toString('base64')}`
  const authorised = (request: IncomingMessage) => !expected || request.headers['proxy-authorization'] === expected
  const server = options.tls ? createHttpsServer(options.tls) : createHttpServer()
  server.on('connection', (socket: Socket) => {
    sockets.add(socket)
    socket.once('close', () => sockets.delete(socket))
  })
  server.on('request', (request: IncomingMessage, response) => {
    hits.push({ kind: 'forward', target: request.url ?? '', auth: request.headers['proxy-authorization'] })
    if (!authorised(request)) {
      response.writeHead(407, { 'proxy-authenticate': 'Basic realm="test"' })
      return response.end()
    }
    const target = new URL(request.url ?? '')
    const { 'proxy-authorization': _auth, ...headers } = request.headers
    const upstream = httpRequest(
      {
        host: options.hosts?.[target.hostname] ?? target.hostname,
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    upstream.once('error', () => response.destroy())
    request.pipe(upstream)
  })
  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    hits.push({ kind: 'connect', target: request.url ?? '', auth: request.headers['proxy-authorization'] })
    if (!authorised(request)) return client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n')
    const { hostname, port } = new URL(`http://${request.url}`)
    const upstream = connect(Number(port), hostname.replace(/^\[|\]$/g, ''), () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.once('close', () => sockets.delete(upstream))
    upstream.once('error', () => client.destroy())
    client.once('error', () => upstream.destroy())
  })
  const port = await listen(server, host)
  return { url: `${options.tls ? 'https' : 'http'}://${host}:${port}`, port, hits, close: closer(server, sockets) }
}

/** A SOCKS5 proxy on `host` (RFC 1928, CONNECT only), with user/password authentication (RFC 1929) when `auth` is given. */
export async function startSocks5Proxy(host: string, options: { auth?: string } = {}): Promise<LoopbackProxy> {
  const hits: ProxyHit[] = []
  const sockets = new Set<Socket>()
  const server = createTcpServer((client) => {
    sockets.add(client)
    client.once('close', () => sockets.delete(client))
    client.once('error', () => client.destroy())
    let buffer = Buffer.alloc(0)
    let stage: 'greeting' | 'auth' | 'request' = 'greeting'
    let auth: string | undefined
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (stage === 'greeting') {
        if (buffer.length < 2 || buffer.length < 2 + buffer[1]) return
        const methods = [...buffer.subarray(2, 2 + buffer[1])]
        buffer = buffer.subarray(2 + buffer[1])
        const method = options.auth ? 0x02 : 0x00
        if (!methods.includes(method)) return client.end(Buffer.from([5, 0xff]))
        client.write(Buffer.from([5, method]))
        stage = options.auth ? 'auth' : 'request'
      }
      if (stage === 'auth') {
        if (buffer.length < 2) return
        const userLength = buffer[1]
        if (buffer.length < 3 + userLength) return
        const passLength = buffer[2 + userLength]
        if (buffer.length < 3 + userLength + passLength) return
        auth = `${buffer.subarray(2, 2 + userLength)}:${buffer.subarray(3 + userLength, 3 + userLength + passLength)}`
        buffer = buffer.subarray(3 + userLength + passLength)
        if (auth !== options.auth) return client.end(Buffer.from([1, 1]))
        client.write(Buffer.from([1, 0]))
        stage = 'request'
      }
      if (stage === 'request') {
        if (buffer.length < 5) return
        const type = buffer[3]
        const length = type === 1 ? 4 : type === 4 ? 16 : 1 + buffer[4]
        if (buffer.length < 4 + length + 2) return
        const raw = buffer.subarray(4, 4 + length)
        const address =
          type === 1
            ? [...raw].join('.')
            : type === 4
              ? (raw.toString('hex').match(/.{4}/g) ?? []).join(':')
              : raw.subarray(1).toString()
        const port = buffer.readUInt16BE(4 + length)
        const rest = buffer.subarray(4 + length + 2)
        client.off('data', onData)
        hits.push({ kind: 'socks5', target: `${address}:${port}`, auth })
        const upstream = connect(port, address, () => {
          client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]))
          if (rest.length) upstream.write(rest)
          upstream.pipe(client)
          client.pipe(upstream)
        })
        sockets.add(upstream)
        upstream.once('close', () => sockets.delete(upstream))
        upstream.once('error', () => client.end(Buffer.from([5, 5, 0, 1, 0, 0, 0, 0, 0, 0])))
      }
    }
    client.on('data', onData)
  })
  const port = await listen(server, host)
  return { url: `socks5://${host}:${port}`, port, hits, close: closer(server, sockets) }
}
