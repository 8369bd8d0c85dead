import { searchLimits } from '~/contracts/search'

/** A type, not an interface: the request's examples are open objects, which an interface is not assignable to. */
export type Example = {
  text: string
  label: string
}

/** Why pasted or uploaded examples cannot be trained on, with what the message needs. */
export type ExamplesProblem =
  | { kind: 'empty' }
  | { kind: 'no-label'; line: number }
  | { kind: 'too-many'; max: number }
  | { kind: 'too-many-labels'; max: number }
  | { kind: 'csv-columns' }

export type ParsedExamples =
  { ok: true; examples: Example[]; labels: string[] } | { ok: false; problem: ExamplesProblem }

/** Fields of one CSV/TSV record at a time, quotes and doubled quotes understood (RFC 4180). */
function records(text: string, delimiter: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  const endField = () => {
    row.push(field)
    field = ''
  }
  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"'
        at++
      } else if (char === '"') quoted = false
      else field += char
    } else if (char === '"') quoted = true
    else if (char === delimiter) endField()
    else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[at + 1] === '\n') at++
      endField()
      rows.push(row)
      row = []
    } else field += char
  }
  if (field || row.length) rows.push([...row, field])
  return rows.filter((r) => r.some((cell) => cell.trim()))
}

function checked(examples: Example[]): ParsedExamples {
  if (examples.length === 0) return { ok: false, problem: { kind: 'empty' } }
  if (examples.length > searchLimits.maxInputs)
    return { ok: false, problem: { kind: 'too-many', max: searchLimits.maxInputs } }
  const labels = [...new Set(examples.map((example) => example.label))]
  if (labels.length > searchLimits.maxClasses)
    return { ok: false, problem: { kind: 'too-many-labels', max: searchLimits.maxClasses } }
  return { ok: true, examples, labels }
}

/** Pasted examples: one per line, `label: text` (the label is everything before the first colon). */
export function parseExampleLines(text: string): ParsedExamples {
  const examples: Example[] = []
  const lines = text.split(/\r?\n/)
  for (const [index, line] of lines.entries()) {
    if (!line.trim()) continue
    const colon = line.indexOf(':')
    const label = colon > 0 ? line.slice(0, colon).trim() : ''
    const body = colon > 0 ? line.slice(colon + 1).trim() : ''
    if (!label || !body) return { ok: false, problem: { kind: 'no-label', line: index + 1 } }
    examples.push({ label, text: body })
  }
  return checked(examples)
}

/** An uploaded CSV or TSV file whose header names a `text` and a `label` column. */
export function parseExampleTable(text: string, delimiter: ',' | '\t'): ParsedExamples {
  const [header, ...rows] = records(text.replace(/^\ufeff/, ''), delimiter)
  const names = (header ?? []).map((name) => name.trim().toLowerCase())
  const at = { text: names.indexOf('text'), label: names.indexOf('label') }
  if (at.text < 0 || at.label < 0) return { ok: false, problem: { kind: 'csv-columns' } }
  const examples: Example[] = []
  for (const [index, row] of rows.entries()) {
    const label = row[at.label]?.trim() ?? ''
    const body = row[at.text]?.trim() ?? ''
    if (!label || !body) return { ok: false, problem: { kind: 'no-label', line: index + 2 } }
    examples.push({ label, text: body })
  }
  return checked(examples)
}

/** Examples as the pasting format shows them, so an uploaded file can be checked and edited before training. */
export const exampleLines = (examples: Example[]) =>
  examples.map((e) => `${e.label}: ${e.text.replace(/\s+/g, ' ')}`).join('\n')
