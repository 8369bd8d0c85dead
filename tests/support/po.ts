import { readFileSync } from 'node:fs'

export interface PoEntry {
  msgid: string
  msgstr: string
  context?: string
}

function unquote(line: string): string {
  return JSON.parse(line.slice(line.indexOf('"')))
}

/** Reads the entries of a gettext .po file (the subset Lingui writes: msgctxt, msgid, msgstr, continued lines). */
export function readPo(path: string): PoEntry[] {
  const entries: PoEntry[] = []
  let current: Partial<PoEntry> = {}
  let field: keyof PoEntry | undefined
  const flush = () => {
    if (current.msgid !== undefined && current.msgid !== '') entries.push(current as PoEntry)
    current = {}
    field = undefined
  }
  for (const raw of readFileSync(path, 'utf8').split('\n')) {
    const line = raw.trim()
    if (line.startsWith('msgctxt ')) {
      flush()
      current.context = unquote(line)
      field = 'context'
    } else if (line.startsWith('msgid ')) {
      if (current.msgid !== undefined) flush()
      current.msgid = unquote(line)
      field = 'msgid'
    } else if (line.startsWith('msgstr ')) {
      current.msgstr = unquote(line)
      field = 'msgstr'
    } else if (line.startsWith('"') && field) {
      current[field] = (current[field] ?? '') + unquote(line)
    } else if (line === '') {
      if (current.msgstr !== undefined) flush()
    }
  }
  flush()
  return entries
}

export const entryKey = (entry: PoEntry) => `${entry.context ?? ''}\u0004${entry.msgid}`
