/**
 * The code (`57P01`, `ECONNREFUSED`, …) by which `error` or anything in its cause chain says the database could not be reached or dropped
 * the connection, rather than refusing the statement: worth a 503 and a retry, not a 500. postgres-js
 * names its own connection failures, Node its socket errors, and Postgres its shutdowns and timeouts by
 * SQLSTATE. A statement cut off this way either committed or rolled back whole, so a caller's retry of
 * an idempotent call (metering by usage event id) lands once.
 */
export function unavailabilityCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && (driverCodes.has(code) || unavailableStates.test(code))) return code
  }
  return undefined
}

const driverCodes = new Set([
  // postgres-js
  'CONNECTION_CLOSED',
  'CONNECTION_DESTROYED',
  'CONNECTION_ENDED',
  'CONNECT_TIMEOUT',
  // Node sockets and name resolution
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
])

/**
 * SQLSTATE class 08 (connection exception), 53300 (too many connections), 57014 (statement timeout or
 * cancel), 57P01–57P05 (shut down, crashed, starting up, database dropped, idle session timeout) and
 * 55P03 (lock timeout).
 */
const unavailableStates = /^(08[0-9A-Z]{3}|53300|57014|57P0[1-5]|55P03)$/

/** Overload and timeouts leave the connection usable; everything else here means it is gone. */
const connectionKept = new Set(['53300', '57014', '55P03'])

/** Whether `error` says a connection was lost (as opposed to the database being slow or full). */
export function lostConnection(error: unknown): boolean {
  const code = unavailabilityCode(error)
  return code !== undefined && !connectionKept.has(code)
}
