// `npm run worker`: one more process working the bulk-embedding queue (and the e-mail outbox) next to the
// web instances, which may then run with JOB_WORKER=off. It is the built server, bound to loopback so it
// takes no traffic but its own health probes (GET /healthz on WORKER_PORT); the server entry starts
// the worker at once. Any number can run: each claims jobs with SKIP LOCKED under a lease.
import { existsSync } from 'node:fs'

const entry = new URL('../.output/server/index.mjs', import.meta.url)
if (!existsSync(entry)) {
  console.error('[worker] no build found: run `npm run build` (or `npm start` once) first')
  process.exit(1)
}
process.env.HOST = '127.0.0.1'
process.env.PORT = process.env.WORKER_PORT || '3100'
process.env.JOB_WORKER = 'on'
console.log(`[worker] working the bulk-embedding queue (health: http://127.0.0.1:${process.env.PORT}/healthz)`)
await import(entry.href)
