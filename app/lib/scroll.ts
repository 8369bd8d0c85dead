import { constants } from '#config'

/**
 * Smoothly scrolls to the first element matching `selector`, leaving room for the sticky header.
 * The element may not exist yet (a lazily rendered section), so it watches the DOM for a while.
 */
export function scrollToSelector(
  selector: string,
  {
    offset = constants.scroll.offsetPx,
    delay = constants.scroll.delayMs,
    timeout = constants.scroll.observerTimeoutMs,
  } = {},
): Promise<boolean> {
  const scrollTo = (element: Element) => {
    const top = element.getBoundingClientRect().top + window.scrollY - offset
    window.scrollTo({ top, behavior: 'smooth' })
  }
  return new Promise((resolve) => {
    setTimeout(() => {
      const found = document.querySelector(selector)
      if (found) {
        scrollTo(found)
        return resolve(true)
      }
      const observer = new MutationObserver(() => {
        const element = document.querySelector(selector)
        if (!element) return
        finish()
        scrollTo(element)
        resolve(true)
      })
      const timer = setTimeout(() => {
        finish()
        resolve(false)
      }, timeout)
      const finish = () => {
        observer.disconnect()
        clearTimeout(timer)
      }
      observer.observe(document.body, { childList: true, subtree: true })
    }, delay)
  })
}
