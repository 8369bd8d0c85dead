import type { Locator } from 'playwright-core'

/**
 * What of an element a visitor sees without scrolling sideways: whether its whole box lies inside the window
 * and inside every box around it that clips or scrolls (a table's scroller cuts what sticks out of it).
 */
export function onScreen(locator: Locator): Promise<{ whole: boolean; where: string }> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect()
    const describe = (name: string, r: DOMRect) =>
      `${name} ${Math.round(r.left)}–${Math.round(r.right)} (element ${Math.round(box.left)}–${Math.round(box.right)})`
    if (box.width === 0) return { whole: false, where: 'not drawn' }
    if (box.left < -0.5 || box.right > window.innerWidth + 0.5)
      return { whole: false, where: describe('window', new DOMRect(0, 0, window.innerWidth, window.innerHeight)) }
    for (let around = element.parentElement; around && around !== document.body; around = around.parentElement) {
      if (getComputedStyle(around).overflowX === 'visible') continue
      const clip = around.getBoundingClientRect()
      if (box.left < clip.left - 0.5 || box.right > clip.right + 0.5)
        return { whole: false, where: describe(`clipped by ${around.tagName.toLowerCase()}`, clip) }
    }
    return { whole: true, where: '' }
  })
}

/**
 * Whether two elements' drawings share any area: each element's box together with where its text is drawn,
 * which spills out of the box when it may not wrap (the note that ran over the next columns).
 */
export async function overlap(a: Locator, b: Locator): Promise<boolean> {
  const drawn = (locator: Locator) =>
    locator.evaluate((element) => {
      const range = document.createRange()
      range.selectNodeContents(element)
      const [box, text] = [element.getBoundingClientRect(), range.getBoundingClientRect()]
      return {
        left: Math.min(box.left, text.left),
        right: Math.max(box.right, text.right),
        top: Math.min(box.top, text.top),
        bottom: Math.max(box.bottom, text.bottom),
      }
    })
  const [one, two] = await Promise.all([drawn(a), drawn(b)])
  const x = Math.min(one.right, two.right) - Math.max(one.left, two.left)
  const y = Math.min(one.bottom, two.bottom) - Math.max(one.top, two.top)
  return x > 0.5 && y > 0.5
}
