import { readFileSync } from 'node:fs'

/** The most a process held while the work ran (resident), and how much more that was than when it began. */
export interface Peak {
  mb: number
  grewMb: number
}

/**
 * The memory a server on this machine (Linux) and the processes it started held while some work ran,
 * sampled every `everyMs`: the server's process, and the child (a reader's converter, Chromium) that grew
 * the most, each from what it held when the work began (or when it started). Undefined where /proc cannot
 * be read. Resident memory is not given back at once, so growth, not the peak, is what the work cost.
 */
export interface PeakMemory<T> {
  result: T
  server: Peak | undefined
  child: Peak | undefined
}

const residentMb = (pid: number): number | undefined => {
  try {
    const kb = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)/m)?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined // gone between two samples
  }
}

const childrenOf = (pid: number): number[] => {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number)
  } catch {
    return []
  }
}

export async function watchMemory<T>(pid: number, work: () => Promise<T>, everyMs = 20): Promise<PeakMemory<T>> {
  const seen = new Map<number, { first: number; most: number }>()
  const note = (process: number) => {
    const size = residentMb(process)
    if (size === undefined) return
    const known = seen.get(process)
    if (known) known.most = Math.max(known.most, size)
    else seen.set(process, { first: size, most: size })
  }
  const sample = () => {
    note(pid)
    for (const child of childrenOf(pid)) note(child)
  }
  sample()
  const timer = setInterval(sample, everyMs)
  try {
    const result = await work()
    sample()
    const peak = (entry: { first: number; most: number }) => ({ mb: entry.most, grewMb: entry.most - entry.first })
    const server = seen.get(pid)
    const children = [...seen].filter(([process]) => process !== pid).map(([, entry]) => peak(entry))
    return {
      result,
      server: server && peak(server),
      child: children.sort((a, b) => b.grewMb - a.grewMb)[0],
    }
  } finally {
    clearInterval(timer)
  }
}
