/**
 * The rules an environment variable can follow, each stated once (env-settings.ts uses them), and the
 * setting that pairs a rule with its README row: what it means and what it is when unset.
 */
import * as v from 'valibot'

type StringRule = v.GenericSchema<string, unknown>

/** A variable's row in the README's configuration table (written by `node scripts/env-table.mjs`). */
export interface Setting<S extends v.GenericSchema = v.GenericSchema> {
  schema: S
  /** What the variable does. A setting without one shares the row above it (UPSTREAM_API_BASE_URL and _KEY). */
  meaning?: string
  /** The default as the table says it: the value in backticks, or `unset`, unless told otherwise. */
  shown: string
}

/** What a setting documents: its meaning, and how its default reads where the value alone would mislead. */
export type Doc = string | { meaning?: string; shown: string } | undefined

/** An empty or blank value counts as unset, as shells and .env files write "unset". */
const blankIsUnset = <S extends StringRule>(rule: S) =>
  v.optional(
    v.pipe(
      v.string(),
      v.trim(),
      v.transform((s) => (s === '' ? undefined : s)),
      v.optional(rule),
    ),
  )

const docOf = (doc: Doc, fallback: string | undefined) => {
  const shown = fallback === undefined ? 'unset' : fallback === '' ? 'empty' : `\`${fallback}\``
  if (doc === undefined || typeof doc === 'string') return { meaning: doc, shown }
  return doc
}

/** A variable that follows `rule`: `fallback` when unset, or undefined without one. */
export function setting<S extends StringRule>(rule: S, doc: Doc, fallback: string): Setting<v.OptionalSchema<S, string>>
export function setting<S extends StringRule>(rule: S, doc?: Doc): Setting<ReturnType<typeof blankIsUnset<S>>>
export function setting<S extends StringRule>(rule: S, doc?: Doc, fallback?: string): Setting {
  const schema = fallback === undefined ? blankIsUnset(rule) : v.optional(rule, fallback)
  return { schema, ...docOf(doc, fallback) }
}

/** `true` or `false`, read as a boolean; false when unset unless told otherwise. */
export function flag(doc: Doc, fallback: boolean = false) {
  const unset: 'true' | 'false' = fallback ? 'true' : 'false'
  const schema = v.pipe(
    v.optional(v.picklist(['true', 'false'], 'must be true or false'), unset),
    v.transform((s) => s === 'true'),
  )
  return { schema, ...docOf(doc, String(fallback)) } satisfies Setting
}

/** A whole number from `min` to `max`. */
export const integer = (min: number, max: number) =>
  v.pipe(v.string(), v.transform(Number), v.integer('must be an integer'), v.minValue(min), v.maxValue(max))

/** One of `values`, named in the message as "a, b or c". */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  v.picklist(values, `must be ${values.length > 1 ? `${values.slice(0, -1).join(', ')} or ` : ''}${values.at(-1)}`)

/** Text that matches `pattern`, `message` saying what it must be. */
export const matching = (pattern: RegExp, message: string) => v.pipe(v.string(), v.regex(pattern, message))

/** A secret: at least `min` characters. */
export const secret = (min: number) => v.pipe(v.string(), v.minLength(min, `must be at least ${min} characters`))

/** Any text, however short (a key issued by a third party, a path). */
export const text = () => v.string()

/** Text that is not empty. */
export const filled = () => v.pipe(v.string(), v.minLength(1))

export const url = () => v.pipe(v.string(), v.url('must be a URL'))

export const email = () => v.pipe(v.string(), v.email('must be an e-mail address'))

/** A rate as `count/seconds`, read as a limit and a window in milliseconds. */
export const rate = () =>
  v.pipe(
    v.string(),
    v.regex(/^\d+\/\d+$/, 'must read like 3/3600 (count/seconds)'),
    v.transform((s) => {
      const [limit, seconds] = s.split('/').map(Number)
      return { limit, windowMs: seconds * 1000 }
    }),
  )

/** A comma-separated list of items that each match `item`; `message` says what the list must be. */
export const listOf = <T extends string>(item: string, message: string) =>
  v.pipe(
    v.string(),
    v.regex(new RegExp(`^(${item}(\\s*,\\s*${item})*)?$`), message),
    v.transform((s) => (s ? (s.split(',').map((part) => part.trim()) as T[]) : [])),
  )

/** The schemas of a record of settings, as valibot's object wants them (the types kept per variable). */
export function schemasOf<T extends Record<string, Setting>>(settings: T): { [K in keyof T]: T[K]['schema'] } {
  return Object.fromEntries(Object.entries(settings).map(([name, s]) => [name, s.schema])) as {
    [K in keyof T]: T[K]['schema']
  }
}

/** The README's configuration table: one row a setting, or a row for a few that go together. */
export function envTable(settings: Record<string, Setting>): string {
  const rows: Array<{ names: string[]; shown: string[]; meaning: string }> = []
  for (const [name, s] of Object.entries(settings)) {
    const last = rows.at(-1)
    if (s.meaning === undefined && last) {
      last.names.push(name)
      last.shown.push(s.shown)
    } else rows.push({ names: [name], shown: [s.shown], meaning: s.meaning ?? '' })
  }
  const cell = (shown: string[]) => (shown.every((x) => x === shown[0]) ? shown[0] : shown.join(', '))
  return [
    '| variable | default | meaning |',
    '|---|---|---|',
    ...rows.map((row) => `| ${row.names.map((n) => `\`${n}\``).join(', ')} | ${cell(row.shown)} | ${row.meaning} |`),
  ].join('\n')
}

const start = '<!-- env-table: written from app/server/env-settings.ts by `node scripts/env-table.mjs` -->'
const end = '<!-- /env-table -->'

/** `readme` with `table` between its env-table markers; throws when the markers are missing. */
export function withEnvTable(readme: string, table: string): string {
  const from = readme.indexOf(start)
  const to = readme.indexOf(end, from)
  if (from < 0 || to < 0) throw new Error(`README.md lacks the markers ${start} … ${end}`)
  return `${readme.slice(0, from + start.length)}\n${table}\n${readme.slice(to)}`
}
