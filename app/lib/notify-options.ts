import type { ToasterProps } from 'sonner'
import { constants } from '#config'

/** Where a notification may appear: the toaster's six places. */
export const notifyPositions = ['top-left', 'top', 'top-right', 'bottom-left', 'bottom', 'bottom-right'] as const
/** The corner of a notification that shows how many times it was repeated. */
export const badgePositions = ['top-left', 'top-right', 'bottom-left', 'bottom-right'] as const

export type NotifyPosition = (typeof notifyPositions)[number]
export type BadgePosition = (typeof badgePositions)[number]

/** What a caller may ask for; typed loosely on purpose, as the values are checked here. */
export interface NotifyOptions {
  position?: string
  /** Milliseconds before it closes by itself; 0 keeps it until dismissed. */
  timeout?: number
  badgePosition?: string
}

export interface ResolvedNotifyOptions {
  position: NotifyPosition
  timeout: number
  badgePosition: BadgePosition
}

const includes = <T extends string>(list: readonly T[], value: string): value is T =>
  (list as readonly string[]).includes(value)

/**
 * Spec §5/§9: a notification's options with their defaults (position bottom, 5000 ms). An invalid position,
 * timeout or badgePosition is reported on the console ("Notify: wrong position") with the options given, and
 * the notification is not shown (null), rather than shown somewhere nobody asked for.
 */
export function resolveNotifyOptions(options: NotifyOptions = {}): ResolvedNotifyOptions | null {
  const position = options.position ?? constants.notificationPosition
  if (!includes(notifyPositions, position)) return reject('wrong position', options)
  const timeout = options.timeout ?? constants.notificationTimeoutMs
  if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout < 0)
    return reject('wrong timeout', options)
  // The badge goes on the top corner away from the screen edge the notification sits against.
  const badgePosition = options.badgePosition ?? (position.includes('left') ? 'top-right' : 'top-left')
  if (!includes(badgePositions, badgePosition)) return reject('wrong badgePosition', options)
  return { position, timeout, badgePosition }
}

function reject(problem: string, options: NotifyOptions): null {
  console.error(`Notify: ${problem}`, options)
  return null
}

/** The toaster's name for each position. */
export const toasterPosition: Record<NotifyPosition, NonNullable<ToasterProps['position']>> = {
  'top-left': 'top-left',
  top: 'top-center',
  'top-right': 'top-right',
  'bottom-left': 'bottom-left',
  bottom: 'bottom-center',
  'bottom-right': 'bottom-right',
}
