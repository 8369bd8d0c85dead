/** A result and its page, when it could be read. */
export interface ResultRead<R, P> {
  result: R
  page?: P
}

/**
 * Reads results in rank order, at most `atOnce` at a time, until `wanted` of them were read: a result that
 * cannot be read (`read` answers undefined) makes room for the next one, as the original stands spare results
 * in for unreadable ones. Answers `wanted` results in rank order, those read first; when fewer could be read,
 * the unread ones fill the rest (the caller answers them without content). `onRead` hears of each page read.
 */
export async function readInRankOrder<R, P>(
  results: R[],
  wanted: number,
  atOnce: number,
  read: (result: R) => Promise<P | undefined>,
  onRead?: (done: Array<ResultRead<R, P>>) => Promise<void>,
): Promise<Array<ResultRead<R, P>>> {
  const outcomes: Array<ResultRead<R, P> | undefined> = new Array(results.length)
  let next = 0
  let readCount = 0
  let inFlight = 0
  const chosen = () => {
    const attempted = outcomes.filter((outcome): outcome is ResultRead<R, P> => outcome !== undefined)
    const pages = attempted.filter((outcome) => outcome.page !== undefined).slice(0, wanted)
    const unread = attempted.filter((outcome) => outcome.page === undefined).slice(0, wanted - pages.length)
    const kept = new Set([...pages, ...unread])
    return attempted.filter((outcome) => kept.has(outcome))
  }
  const worker = async () => {
    // A worker starts a read only while the reads done and under way could still fall short of `wanted`.
    while (next < results.length && readCount + inFlight < wanted) {
      const index = next++
      inFlight++
      let page: P | undefined
      try {
        page = await read(results[index])
      } finally {
        inFlight--
      }
      outcomes[index] = { result: results[index], page }
      if (page !== undefined) {
        readCount++
        await onRead?.(chosen())
      }
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(atOnce, wanted)) }, worker))
  return chosen()
}
