import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { PageSlots } from '~/server/providers/reader/browser/slots'

/**
 * The browser engine's page slots between callers (issue 38: two callers' pages held every slot and a third
 * caller's read waited past its own time). Time is the test's: a minute of browser time passes in no time.
 */
beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
afterEach(() => vi.useRealTimers())

const slots = () => new PageSlots({ pages: 2, perCaller: 1, budgetMs: 10_000 })
const far = () => Date.now() + 60_000

describe('page slots shared between callers', () => {
  it('gives a freed slot to a third caller before the other reads of the two callers holding them', async () => {
    const pool = slots()
    const a = await pool.take('a', far())
    const b = await pool.take('b', far())
    const order: string[] = []
    const waiting = ['a', 'b', 'c'].map((caller) =>
      pool.take(caller, far()).then((lease) => (order.push(caller), lease)),
    )
    await vi.advanceTimersByTimeAsync(1000)
    expect(order).toEqual([])
    a.release()
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual(['c'])
    b.release()
    await vi.advanceTimersByTimeAsync(0)
    // Then the caller that used the least browser time: b's page ran as long as a's, and a asked first.
    expect(order).toEqual(['c', 'a'])
    for (const lease of await Promise.all(waiting.slice(0, 1).concat(waiting.slice(2)))) lease.release()
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toEqual(['c', 'a', 'b'])
  })

  it("ends a caller's lease where its browser time runs out, and refuses it then, saying when to come back", async () => {
    const pool = slots()
    const first = await pool.take('a', far())
    expect(first.until).toBe(Date.now() + 10_000)
    await vi.advanceTimersByTimeAsync(4000)
    first.release()
    const second = await pool.take('a', far())
    expect(second.until).toBe(Date.now() + 6000)
    await vi.advanceTimersByTimeAsync(6000)
    second.release()
    expect(() => pool.refuseSpent('a')).toThrow(expect.objectContaining({ kind: 'BrowserTimeSpent' }))
    await expect(pool.take('a', far())).rejects.toMatchObject({ kind: 'BrowserTimeSpent', retryAfterSeconds: 54 })
    // Another caller is untouched; and once a's first span leaves the minute, a may read again.
    await pool.take('b', far()).then((lease) => lease.release())
    await vi.advanceTimersByTimeAsync(54_000)
    expect(() => pool.refuseSpent('a')).not.toThrow()
  })

  it('refuses a read still waiting at its deadline with 504, and forgets it', async () => {
    const pool = slots()
    await pool.take('a', far())
    await pool.take('b', far())
    const late = pool.take('c', Date.now() + 2000)
    const refused = expect(late).rejects.toMatchObject({ problem: 'timeout' })
    await vi.advanceTimersByTimeAsync(2000)
    await refused
  })

  it('lets reads without a caller use every slot, without a budget', async () => {
    const pool = slots()
    const leases = [await pool.take(undefined, far()), await pool.take(undefined, far())]
    expect(leases.map((lease) => lease.until)).toEqual([Infinity, Infinity])
  })
})
