import { createSocket } from 'node:dgram'
import type { AddressInfo } from 'node:net'
import * as packet from 'dns-packet'

export interface DnsRecords {
  [name: string]: { A?: string[]; AAAA?: string[] }
}

export interface FakeDns {
  /** `127.0.0.1:<port>`, as READER_DNS_SERVERS takes it. */
  server: string
  /** Names asked for, in order. */
  questions: string[]
  close(): Promise<void>
}

/**
 * A DNS server on loopback answering A and AAAA questions from `records` (NXDOMAIN for other names), so
 * tests can give names any address, as a hostile zone would, without the internet.
 */
export async function startFakeDns(records: DnsRecords): Promise<FakeDns> {
  const socket = createSocket('udp4')
  const questions: string[] = []
  socket.on('message', (message, remote) => {
    const query = packet.decode(message)
    const question = query.questions?.[0]
    if (!question) return
    questions.push(question.name)
    const entry = records[question.name.toLowerCase()]
    const type = question.type as 'A' | 'AAAA'
    const answers = (entry?.[type] ?? []).map((data) => ({
      type,
      name: question.name,
      ttl: 1,
      class: 'IN' as const,
      data,
    }))
    const reply = packet.encode({
      id: query.id,
      type: 'response',
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (entry ? 0 : 3),
      questions: query.questions,
      answers,
    })
    socket.send(reply, remote.port, remote.address)
  })
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve))
  const { port } = socket.address() as AddressInfo
  return {
    server: `127.0.0.1:${port}`,
    questions,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  }
}
