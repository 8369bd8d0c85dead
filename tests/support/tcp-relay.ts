import { connect, createServer, type Server, type Socket } from 'node:net'

/**
 * A TCP relay on 127.0.0.1 in front of a real service, which a test can cut (every connection dropped, the
 * port closed) and open again on the same port: the service going away and coming back, as clients see it.
 */
export async function tcpRelay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const next = createServer((client) => {
        const upstream = connect(target)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => socket.destroy())
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      next.once('error', reject)
      next.listen(port, '127.0.0.1', () => {
        port = (next.address() as { port: number }).port
        server = next
        resolve()
      })
    })
  await listen()
  const cut = async () => {
    const closing = server
    server = undefined
    for (const socket of sockets) socket.destroy()
    await new Promise<void>((resolve) => (closing ? closing.close(() => resolve()) : resolve()))
  }
  return { port, url: `redis://127.0.0.1:${port}`, cut, restore: listen, close: cut }
}
