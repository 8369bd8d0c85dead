/**
 * How a committed debit that opened an auto-recharge attempt wakes this process's recharge worker. The
 * worker registers itself when it starts; before that (or with none) the attempt waits for a worker's poll.
 */
let wake: (() => void) | undefined

export function onRechargeDue(listener: () => void): void {
  wake = listener
}

export function kickRecharges(): void {
  wake?.()
}
