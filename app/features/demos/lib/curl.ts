/** POSIX shell single quotes: inside them only `'` itself needs care (close, escaped quote, reopen). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

export interface CurlCall {
  /** The server's PUBLIC_API_BASE_URL, without a trailing slash. */
  apiBaseUrl: string
  path: string
  body: unknown
  /** What stands in the Authorization header (the key, a masked one or a placeholder); none: no header. */
  key?: string
}

/** The `curl` command that sends `body` to `path` as the demo does, one option a line. */
export function demoCurl({ apiBaseUrl, path, body, key }: CurlCall): string {
  const lines = [
    `curl -X POST ${shellQuote(`${apiBaseUrl}${path}`)}`,
    `-H ${shellQuote('Content-Type: application/json')}`,
  ]
  if (key !== undefined) lines.push(`-H ${shellQuote(`Authorization: Bearer ${key}`)}`)
  // Indenting the JSON's lines changes only its whitespace, so the body sent is the same.
  lines.push(`-d ${shellQuote(JSON.stringify(body, null, 2).replaceAll('\n', '\n  '))}`)
  return lines.join(' \\\n  ')
}
