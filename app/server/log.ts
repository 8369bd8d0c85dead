import { currentRequest } from './request-context'

export type LogLevel = 'debug' | 'info' | 'warn' | 'error'

const rank: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 }

/** LOG_LEVEL is read here rather than through serverEnv so a bad environment can still be logged. */
function enabled(level: LogLevel): boolean {
  const configured = globalThis.process?.env?.LOG_LEVEL as LogLevel | undefined
  return rank[level] >= rank[configured && configured in rank ? configured : 'info']
}

/**
 * An error's message fit for a log line: its first line only, URLs without their query strings (they may
 * carry a key), and for a failed query its statement without the parameter values Drizzle appends (a key
 * hash among them).
 */
function safeMessage(error: Error): string {
  const query = (error as { query?: unknown }).query
  const message = typeof query === 'string' && 'params' in error ? `Failed query: ${query}` : error.message
  return message
    .split('\n')[0]
    .replace(/\b(https?:\/\/[^\s?#]*)\?[^\s#]*/g, '$1?…')
    .slice(0, 500)
}

/** Where an error was thrown: the first frame of its stack, on one line. */
function thrownAt(error: Error): string | undefined {
  return error.stack
    ?.split('\n')
    .find((line) => /^\s+at /.test(line))
    ?.trim()
    .slice(3)
}

/**
 * An error as plain data for one log line: name, message, database error code and where it was thrown,
 * for it and each cause. Never the full stack (one failure, one line) or the values a query carried.
 */
export function errorFields(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { value: String(error).split('\n')[0].slice(0, 500) }
  const fields: Record<string, unknown> = { name: error.name, message: safeMessage(error) }
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string' || typeof code === 'number') fields.code = code
  const at = thrownAt(error)
  if (at) fields.at = at
  if (error.cause !== undefined && depth < 5) fields.cause = errorFields(error.cause, depth + 1)
  return fields
}

/** This process's name (INSTANCE_ID, else host name and pid once the Node server has named itself). */
let instance: string | undefined

export function setLogInstance(name: string): void {
  instance = name
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
    ...((instance ?? globalThis.process?.env?.INSTANCE_ID) ? { instance: instance ?? process.env.INSTANCE_ID } : {}),
    ...(request ? { request_id: request.requestId, method: request.method, path: request.path } : {}),
    ...fields,
  })
  if (rank[level] >= rank.warn) console.error(line)
  else console.log(line)
}
