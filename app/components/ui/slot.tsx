import {
  cloneElement,
  isValidElement,
  type CSSProperties,
  type HTMLAttributes,
  type ReactElement,
  type ReactNode,
} from 'react'
import { cn } from '~/lib/utils'

type Props = Record<string, unknown>

/**
 * `asChild`: renders the only child with the slot's props merged in. The child's own props win, classes
 * are joined, styles merged and both event handlers run (the child's first). Radix's Slot also composes
 * refs; nothing here passes one, and this is a tenth of its bytes on every page that has a button link.
 */
export function Slot({ children, ...slotProps }: HTMLAttributes<HTMLElement> & { children?: ReactNode }) {
  if (!isValidElement(children)) return null
  const child = children as ReactElement<Props>
  const own = child.props
  const merged: Props = { ...slotProps, ...own }
  for (const [name, handler] of Object.entries(slotProps)) {
    const childHandler = own[name]
    if (/^on[A-Z]/.test(name) && typeof handler === 'function' && typeof childHandler === 'function') {
      merged[name] = (...args: unknown[]) => {
        childHandler(...args)
        handler(...args)
      }
    }
  }
  merged.className = cn(slotProps.className, own.className as string | undefined) || undefined
  if (slotProps.style || own.style) merged.style = { ...slotProps.style, ...(own.style as CSSProperties | undefined) }
  return cloneElement(child, merged)
}
