/**
 * Converting is background work: a converter yields the CPU to the server's event loop (and to anything
 * else at normal priority) whenever both want it. Linux keeps a priority per thread, named by its thread id
 * (here the converter's main thread); on other systems, or where /proc cannot be read, it keeps the normal
 * priority. Imported first by ./thread.ts, so the rest of the converter's code loads at the lower priority.
 */
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'

try {
  const threadId = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(threadId) && threadId > 0) setPriority(threadId, 10)
} catch {
  // Not Linux, or no /proc: the default priority.
}
