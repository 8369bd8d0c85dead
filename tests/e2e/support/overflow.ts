import type { Page } from 'playwright-core'

/** The widths a page must fit without sideways scrolling: small and common phones, a portrait tablet. */
export const layoutWidths = [320, 390, 768] as const

/**
 * Resizes the viewport and says what sticks out: nothing when the document is no wider than the window,
 * otherwise its width and the elements whose right edge passes the window's while their parent's does
 * not (the boxes that push the page wider, rather than everything inside them).
 */
export async function overflowAt(page: Page, width: number): Promise<string | undefined> {
  await page.setViewportSize({ width, height: 800 })
  // page.evaluate has no timeout of its own: a page whose main thread never yields would hang the whole run.
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer at ${width} px within 15 s: main thread busy?`)), 15_000)
  })
  return Promise.race([measure(page), deadline]).finally(() => clearTimeout(timer))
}

function measure(page: Page): Promise<string | undefined> {
  return page.evaluate(async () => {
    // Two frames: media queries apply, then ResizeObservers (charts) redraw. A tab the browser stops painting
    // (one of several under load) may never give a frame: 250 ms stands in for one then.
    for (let i = 0; i < 2; i++)
      await new Promise((resolve) => {
        requestAnimationFrame(resolve)
        setTimeout(resolve, 250)
      })
    const limit = window.innerWidth
    const scrollWidth = document.documentElement.scrollWidth
    if (scrollWidth <= limit) return undefined
    const clips = (element: Element) => getComputedStyle(element).overflowX !== 'visible'
    const right = (element: Element) => element.getBoundingClientRect().right
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : ''
      const testId = element.getAttribute('data-testid')
      const classes = (element.getAttribute('class') ?? '').split(/\s+/).filter(Boolean).slice(0, 6)
      const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 40)
      return `${element.tagName.toLowerCase()}${id}${testId ? `[data-testid=${testId}]` : ''}${classes.length ? `.${classes.join('.')}` : ''} "${text}" right=${Math.round(right(element))}`
    }
    // How far an element and what it draws reach: text that does not fit overflows its box visibly.
    const reach = (element: Element) =>
      Math.max(right(element), element.getBoundingClientRect().left + (clips(element) ? 0 : element.scrollWidth))
    const offenders: string[] = []
    for (const element of document.body.querySelectorAll('*')) {
      if (reach(element) <= limit + 0.5) continue
      const parent = element.parentElement
      const sticksOut = right(element) > limit + 0.5
      // Report the outermost box that sticks out, or a box that fits but whose own text does not.
      if (sticksOut && parent && parent !== document.body && right(parent) > limit + 0.5) continue
      if (!sticksOut && [...element.children].some((child) => reach(child) > limit + 0.5)) continue
      // Inside a scrolling or clipping box the element widens that box, not the page.
      let clipped = false
      for (let a = parent; a && a !== document.body; a = a.parentElement) if (clips(a)) clipped = true
      if (!clipped) offenders.push(`${sticksOut ? '' : 'text of '}${describe(element)}`)
    }
    return `${scrollWidth} px wide: ${offenders.slice(0, 4).join('; ') || 'no single element found'}`
  })
}
