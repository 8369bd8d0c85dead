import { currentRequest } from './request-context'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** LOG_LEVEL is read here rather than through serverEnv so a bad environment can still be logged. */
function enabled(level: LogLevel): boolean {
  const configured = globalThis.process?.env?.LOG_LEVEL as LogLevel | undefined
  return rank[level] >= rank[configured && configured in rank ? configured : 'info']
}

/** An error as plain data for a log line: its cause chain kept, database error codes included. */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: String(error) }
  const fields: Record<string, unknown> = { name: error.name, message: error.message }
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' || typeof code === 'number') fields.code = code
  if (error.stack) fields.stack = error.stack
  if (error.cause !== undefined && depth < 5) fields.cause = errorFields(error.cause, depth + 1)
  return fields
}

/**
 * One JSON line per event, naming the request it belongs to. Callers pass only what is safe to keep:
 * never a key, a captcha payload or a request body.
 */
export function log(level: LogLevel, message: string, fields: Record<string, unknown> = {}): void {
  if (!enabled(level)) return
  const request = currentRequest()
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    msg: message,
    ...(request ? { request_id: request.requestId, method: request.method, path: request.path } : {}),
    ...fields,
  })
  if (rank[level] >= rank.warn) console.error(line)
  else console.log(line)
}
