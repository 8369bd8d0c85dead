/**
 * A deliberately tiny frontmatter reader for the news posts: `key: value` lines, quoted strings and
 * inline `[a, b]` lists. Anything else throws, so a typo fails the build rather than vanishing.
 */
export type FrontmatterValue = string | string[]

export function parseFrontmatter(
  source: string,
  file = 'post',
): { data: Record<string, FrontmatterValue>; body: string } {
  const text = source.replace(/\r\n?/g, '\n')
  const match = /^---\n([\s\S]*?)\n---(?:\n|$)/.exec(text)
  if (!match) throw new Error(`${file}: missing --- frontmatter block`)
  const data: Record<string, FrontmatterValue> = {}
  for (const [i, line] of match[1].split('\n').entries()) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue
    const pair = /^([A-Za-z][\w-]*):\s*(.*)$/.exec(line)
    if (!pair) throw new Error(`${file}: frontmatter line ${i + 1} is not "key: value"`)
    const [, key, raw] = pair
    if (key in data) throw new Error(`${file}: frontmatter key "${key}" appears twice`)
    data[key] = parseValue(raw.trim())
  }
  return { data, body: text.slice(match[0].length).replace(/^\n+/, '') }
}

function parseValue(raw: string): FrontmatterValue {
  if (raw.startsWith('[') && raw.endsWith(']')) {
    const inner = raw.slice(1, -1).trim()
    return inner === '' ? [] : inner.split(',').map((item) => unquote(item.trim()))
  }
  return unquote(raw)
}

function unquote(s: string): string {
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) return JSON.parse(s) as string
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) return s.slice(1, -1).replace(/''/g, "'")
  return s
}

/** Reading time at 220 words a minute, never less than one minute. */
export function readingMinutes(markdown: string): number {
  const words = markdown.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length
  return Math.max(1, Math.round(words / 220))
}
