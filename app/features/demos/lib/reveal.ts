import { constants } from '#config'

/**
 * Brings `element`'s top into view below the sticky header when it is not there already (on a phone the
 * answer sits below the form, often below the fold). Smooth unless the visitor asked for reduced motion.
 */
export function revealElement(element: Element, { offset = constants.scroll.offsetPx } = {}) {
  const { top } = element.getBoundingClientRect()
  // In view: its top is below the header and above the last fifth of the window.
  if (top >= offset && top <= window.innerHeight * 0.8) return
  const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches
  window.scrollTo({ top: top + window.scrollY - offset, behavior: smooth ? 'smooth' : 'auto' })
}
