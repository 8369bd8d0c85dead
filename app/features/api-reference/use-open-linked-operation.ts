import { useEffect } from 'react'

/** Opens the collapsed operation a link points at (`#operation-id`), on arrival and on every later jump. */
export function useOpenLinkedOperation() {
  useEffect(() => {
    const open = () => {
      const id = decodeURIComponent(location.hash.slice(1))
      if (!id) return
      const details = document.querySelector<HTMLDetailsElement>(`details[data-operation="${CSS.escape(id)}"]`)
      if (details) details.open = true
    }
    open()
    addEventListener('hashchange', open)
    return () => removeEventListener('hashchange', open)
  }, [])
}
