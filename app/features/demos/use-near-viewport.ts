import { useEffect, useRef, useState } from 'react'

/**
 * True once the element comes within `margin` of the viewport (and from then on): the demo's code is
 * fetched as the visitor scrolls towards it, not with the page, so the page's first load stays as it was.
 */
export function useNearViewport<E extends Element>(margin = '200px') {
  const ref = useRef<E>(null)
  const [near, setNear] = useState(false)
  useEffect(() => {
    const element = ref.current
    if (!element || near) return
    if (typeof IntersectionObserver === 'undefined') return setNear(true)
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) setNear(true)
      },
      { rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [margin, near])
  return { ref, near }
}
