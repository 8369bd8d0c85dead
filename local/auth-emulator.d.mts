export function freePort(): Promise<number>
export function startAuthEmulator(options: {
  projectId: string
  port?: number
  quiet?: boolean
  /** Where its accounts are kept across restarts (loaded at start, saved while it runs); unset: none kept. */
  accountsDir?: string
}): Promise<{
  host: string
  url: string
  /** The emulator's process. */
  pid: number
  /** Accounts loaded from `accountsDir`. */
  restored: number
  /** Saves its accounts once more (with `accountsDir`), then ends it. */
  stop: () => Promise<void>
  /** Ends it at once, for a process's `exit` event (nothing asynchronous runs there). */
  stopAtExit: () => void
}>
