import { useLocation } from '@tanstack/react-router'
import { ChevronDown } from 'lucide-react'
import { useEffect, useId, useRef, useState, type ReactNode } from 'react'
import { cn } from '~/lib/utils'

/**
 * A button that opens a panel of links: the disclosure pattern, with no menu library, so marketing
 * pages stay light. Closes on Escape, on a click outside and on navigation. The panel exists only while
 * open: the header's five menus held ~200 hidden elements that every page sent, parsed and hydrated, and
 * a tap before the app runs is replayed once it does (app/server/http/deferred-runtime.ts), so it opens all
 * the same.
 */
export function DisclosureMenu({
  label,
  children,
  align = 'start',
  className,
  buttonClassName,
  icon,
}: {
  label: ReactNode
  children: ReactNode
  align?: 'start' | 'end'
  className?: string
  buttonClassName?: string
  icon?: ReactNode
}) {
  const [open, setOpen] = useState(false)
  const id = useId()
  const root = useRef<HTMLDivElement>(null)
  const { pathname } = useLocation()

  useEffect(() => setOpen(false), [pathname])
  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setOpen(false)
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  return (
    <div ref={root} className={cn('relative', className)}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        onClick={() => setOpen((o) => !o)}
        className={cn(
          'inline-flex h-9 items-center gap-1 rounded-md text-sm font-medium text-foreground/80 hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
          buttonClassName ?? 'px-2 lg:px-3',
        )}
      >
        {icon}
        {label}
        <ChevronDown aria-hidden className={cn('size-3.5 transition-transform', open && 'rotate-180')} />
      </button>
      {open && (
        <div
          id={id}
          className={cn(
            'absolute top-full z-50 mt-1 min-w-56 rounded-lg border bg-popover p-2 text-popover-foreground shadow-lg',
            align === 'end' ? 'right-0' : 'left-0',
          )}
        >
          {children}
        </div>
      )}
    </div>
  )
}
