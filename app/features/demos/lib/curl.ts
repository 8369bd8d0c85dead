/** POSIX shell single quotes: inside them only `'` itself needs care (close, escaped quote, reopen). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`
}

/** The key when the visitor has none yet: the shell's `API_KEY`, as in the documentation's samples. */
export const KEY_VARIABLE = '$API_KEY'

export interface CurlCall {
  /** The server's PUBLIC_API_BASE_URL, without a trailing slash. */
  apiBaseUrl: string
  path: string
  body: unknown
  /** What stands in the Authorization header (the key, a masked one, or `KEY_VARIABLE`); none: no header. */
  key?: string
  /** Further request headers (the reader's options, `Accept` of a stream), sent after the key. */
  headers?: Record<string, string>
  /** The answer streams: curl must print it as it arrives (`-N`) rather than when its buffer fills. */
  stream?: boolean
}

/** The `curl` command that sends `body` to `path` as the demo does, one option a line. */
export function demoCurl({ apiBaseUrl, path, body, key, headers = {}, stream = false }: CurlCall): string {
  const lines = [`curl -X POST ${shellQuote(`${apiBaseUrl}${path}`)}`]
  if (stream) lines.push('-N')
  lines.push(`-H ${shellQuote('Content-Type: application/json')}`)
  // The variable in double quotes, so the shell expands it; a key itself in single quotes, so nothing in it does.
  if (key === KEY_VARIABLE) lines.push(`-H "Authorization: Bearer ${KEY_VARIABLE}"`)
  else if (key !== undefined) lines.push(`-H ${shellQuote(`Authorization: Bearer ${key}`)}`)
  for (const [name, value] of Object.entries(headers)) lines.push(`-H ${shellQuote(`${name}: ${value}`)}`)
  // Indenting the JSON's lines changes only its whitespace, so the body sent is the same.
  lines.push(`-d ${shellQuote(JSON.stringify(body, null, 2).replaceAll('\n', '\n  '))}`)
  return lines.join(' \\\n  ')
}
