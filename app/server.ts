import { createServerEntry } from '@tanstack/react-start/server-entry'
import { startBackgroundWork } from './server/api/background'
import { ConfigError, serverEnv } from './server/env'
import { isPrerendering } from './server/http/prerendering'
import { runtime } from './server/runtime'
import { answerRequest } from './server-handler'
import { checkContent } from '../content/check'

// Validate the environment when the server starts, so a bad value stops start-up with a message
// naming the variable instead of failing the first request. Requests read it again (edge runtimes).
// The content is checked here too: the build prerenders through this server, so a bad entry stops it.
try {
  serverEnv()
  checkContent()
} catch (error) {
  console.error(error instanceof ConfigError ? `[config] ${error.message}` : `[content] ${(error as Error).message}`)
  // A Worker has no start-up to stop (and Cloudflare loads it to check it before its secrets may be set):
  // there every request fails on the same error instead, logged with it.
  if (runtime === 'node') {
    globalThis.process?.exit?.(1)
    throw error
  }
}

// The work a server does besides answering starts with it (a Nitro plugin, app/server/boot.ts, loads this
// file as the server starts) and stops with it (each part registers with `onShutdown`). A Worker keeps none.
if (!isPrerendering()) startBackgroundWork()

export default createServerEntry({ fetch: answerRequest })
