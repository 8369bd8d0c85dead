export function freePort(): Promise<number>
export function startAuthEmulator(options: {
  projectId: string
  port?: number
  quiet?: boolean
}): Promise<{ host: string; url: string; stop: () => Promise<void> }>
