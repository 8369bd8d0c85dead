// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { scrollToSelector } from '~/lib/scroll'

describe('scrollToSelector', () => {
  let scrollTo: ReturnType<typeof vi.fn>
  beforeEach(() => {
    vi.useFakeTimers()
    document.body.innerHTML = ''
    scrollTo = vi.fn()
    window.scrollTo = scrollTo as unknown as typeof window.scrollTo
  })
  afterEach(() => vi.useRealTimers())

  function placeAt(id: string, top: number) {
    const element = document.createElement('section')
    element.id = id
    element.getBoundingClientRect = () => ({
      top,
      left: 0,
      right: 0,
      bottom: top,
      width: 0,
      height: 0,
      x: 0,
      y: top,
      toJSON: () => ({}),
    })
    document.body.append(element)
  }

  it('waits 100 ms, then scrolls smoothly to the element less the 60 px header', async () => {
    placeAt('pricing', 500)
    const done = scrollToSelector('#pricing')
    await vi.advanceTimersByTimeAsync(99)
    expect(scrollTo).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(await done).toBe(true)
    expect(scrollTo).toHaveBeenCalledWith({ top: 440, behavior: 'smooth' })
  })

  it('finds an element that appears within two seconds', async () => {
    const done = scrollToSelector('#late')
    await vi.advanceTimersByTimeAsync(1500)
    placeAt('late', 900)
    await vi.advanceTimersByTimeAsync(10)
    expect(await done).toBe(true)
    expect(scrollTo).toHaveBeenCalledWith({ top: 840, behavior: 'smooth' })
  })

  it('gives up after two seconds without scrolling', async () => {
    const done = scrollToSelector('#never')
    await vi.advanceTimersByTimeAsync(2100)
    expect(await done).toBe(false)
    placeAt('never', 100)
    await vi.advanceTimersByTimeAsync(10)
    expect(scrollTo).not.toHaveBeenCalled()
  })
})
