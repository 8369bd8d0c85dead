import { readFileSync, readlinkSync } from 'node:fs'
import { hostname } from 'node:os'

/**
 * Where a process runs, precisely enough for another process to tell later whether it still does: its pid,
 * the process table that pid belongs to (`scope`) and, where the system tells, when it started (a pid is
 * reused once its process is gone).
 */
export interface ProcessPlace {
  pid: number
  /**
   * On Linux the kernel's boot id and the PID namespace: two containers on one host share the boot but not the
   * pid table, and share a host name only by chance. Elsewhere the host name.
   */
  scope: string
  /** Linux: the process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  started: string | null
}

const linux = process.platform === 'linux'

/** Field 22 of /proc/<pid>/stat, read after the name in parentheses (which may hold spaces); undefined: no such process. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

function scopeOfThisProcess(): string {
  if (linux) {
    try {
      const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim()
      return `linux:${boot}:${readlinkSync('/proc/self/ns/pid')}`
    } catch {
      // No /proc (a hardened sandbox): fall through to the host name.
    }
  }
  return `host:${hostname()}`
}

let scope: string | undefined

/** The place of process `pid` of this machine's process table (this process's own by default). */
export function processPlace(pid = process.pid): ProcessPlace {
  scope ??= scopeOfThisProcess()
  return { pid, scope, started: (scope.startsWith('linux:') && startTimeOf(pid)) || null }
}

let own: ProcessPlace | undefined

/** This process's place. */
export function thisProcessPlace(): ProcessPlace {
  own ??= processPlace()
  return own
}

/**
 * Whether the process at `place` is known to be gone: it shares this process's table and its pid runs no
 * process, or another one started since. A place in another scope (another host, container or boot) is never
 * known to be gone: false.
 */
export function isGone(place: { pid: number | null; scope: string | null; started: string | null }): boolean {
  const here = thisProcessPlace()
  if (place.pid === null || place.scope !== here.scope) return false
  if (place.pid === here.pid) return place.started !== here.started
  if (place.scope.startsWith('linux:')) {
    const started = startTimeOf(place.pid)
    return started === undefined || (place.started !== null && started !== place.started)
  }
  try {
    process.kill(place.pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
