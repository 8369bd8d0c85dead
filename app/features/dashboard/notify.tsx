import { toast } from 'sonner'
import { resolveNotifyOptions, toasterPosition, type BadgePosition, type NotifyOptions } from '~/lib/notify-options'

type Kind = 'success' | 'error' | 'warning' | 'info'

const badgeCorner: Record<BadgePosition, string> = {
  'top-left': '-top-2 -left-2',
  'top-right': '-top-2 -right-2',
  'bottom-left': '-bottom-2 -left-2',
  'bottom-right': '-bottom-2 -right-2',
}

/** How many times each notification on screen was shown, by kind, position and message. */
const repeats = new Map<string, number>()

/**
 * Shows a notification with spec §5/§9's options. The same message again while it is on screen does not
 * stack a copy: the one shown stays, restarts its timeout and counts the repeats in a badge. Returns false
 * when the options were refused (see resolveNotifyOptions).
 */
function show(kind: Kind, message: string, options?: NotifyOptions, action?: NotifyAction): boolean {
  const resolved = resolveNotifyOptions(options)
  if (!resolved) return false
  const id = `${kind}|${resolved.position}|${message}`
  const count = (repeats.get(id) ?? 0) + 1
  repeats.set(id, count)
  const forget = () => repeats.delete(id)
  toast[kind](
    count === 1 ? (
      message
    ) : (
      <>
        {message}
        <span
          aria-hidden
          data-testid="notify-badge"
          className={`absolute ${badgeCorner[resolved.badgePosition]} min-w-5 rounded-full bg-primary px-1.5 text-center text-xs leading-5 font-semibold text-primary-foreground`}
        >
          {count}
        </span>
      </>
    ),
    {
      id,
      position: toasterPosition[resolved.position],
      duration: resolved.timeout === 0 ? Infinity : resolved.timeout,
      onDismiss: forget,
      onAutoClose: forget,
      ...(action ? { action: { label: action.label, onClick: action.onClick } } : {}),
    },
  )
  return true
}

/** A button in the notification that leads where its message points (e.g. to the Billing tab). */
export interface NotifyAction {
  label: string
  onClick: () => void
}

export const notify = {
  success: (message: string, options?: NotifyOptions, action?: NotifyAction) =>
    show('success', message, options, action),
  error: (message: string, options?: NotifyOptions, action?: NotifyAction) => show('error', message, options, action),
  warning: (message: string, options?: NotifyOptions, action?: NotifyAction) =>
    show('warning', message, options, action),
  info: (message: string, options?: NotifyOptions, action?: NotifyAction) => show('info', message, options, action),
}
