import handler, { createServerEntry } from '@tanstack/react-start/server-entry'
import { ConfigError, serverEnv } from '../app.config'

// Validate the environment when the server starts, so a bad value stops start-up with a message
// naming the variable instead of failing the first request. Requests read it again (edge runtimes).
try {
  serverEnv()
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(`[config] ${error.message}`)
    globalThis.process?.exit?.(1)
  }
  throw error
}

export default createServerEntry({
  fetch(request, options) {
    return handler.fetch(request, options)
  },
})
