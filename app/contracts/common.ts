/**
 * Pieces the endpoint contracts share. Contracts are plain valibot schemas, safe on both sides: the REST
 * routes validate with them, the server functions validate with them, the OpenAPI document is generated
 * from them and the dashboard's types are inferred from them.
 */
import * as v from 'valibot'

/** The largest token amount the API accepts anywhere (a trillion). */
export const maxTokens = 1_000_000_000_000

/** A whole number sent as text (query strings, form fields), checked and turned into a number. */
export const wholeNumberText = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,15}$/, 'must be a whole number'),
    v.transform(Number),
    v.minValue(min),
    v.maxValue(max),
  )

/**
 * Characters Postgres cannot keep: NUL (refused by text and jsonb) and UTF-16 halves without their partner
 * (refused by jsonb, silently replaced in text). Any string holding one is refused at the edge, before it
 * can fail a statement that other callers share.
 */
const unstorable = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
export const isStorableText = (text: string) => !unstorable.test(text)
export const unstorableTextMessage = 'contains a character that cannot be stored (NUL or a lone surrogate)'

/** A single-line text (a name, a company): no line breaks or other control characters, which would let it forge mail headers or log lines. */
export const isSingleLine = (text: string) => !/\p{Cc}/u.test(text)

/** The days the API reasons about; outside them a date is a typo, and date arithmetic could leave Postgres's range. */
const firstDay = '2000-01-01'
const lastDay = '2999-12-31'

/** A real calendar day: 2024-02-30 is refused rather than read as 1 March. */
function isCalendarDay(text: string): boolean {
  const day = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
}

export const isoDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)'),
  v.check(isCalendarDay, 'must be a date that exists in the calendar'),
  v.check((day) => day >= firstDay && day <= lastDay, `must be between ${firstDay} and ${lastDay}`),
)

/** A row id sent as text, small enough to stay exact as a JavaScript number (a longer one would name another row). */
export const idText = (message: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,18}$/, message),
    v.check((id) => Number.isSafeInteger(Number(id)), message),
  )

/** An API key as a caller presents it; whether it is one of ours is the server's business. */
export const presentedKey = v.pipe(v.string(), v.maxLength(200))

/**
 * A refusal: `detail` as the original API and the dashboard read it, and on /v1 OpenAI's error object beside
 * it, which its SDKs read into `err.message`, `err.type`, `err.code` and `err.param`.
 */
export const errorAnswer = v.object({
  detail: v.union([
    v.string(),
    v.array(v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string(), type: v.string() })),
  ]),
  error: v.optional(
    v.object({
      message: v.string(),
      type: v.string(),
      code: v.nullable(v.string()),
      param: v.nullable(v.string()),
    }),
  ),
})
export type ErrorAnswer = v.InferOutput<typeof errorAnswer>

/** A name or title: one line of storable text, trimmed, at most `max` characters. */
export const singleLine = (max: number) =>
  v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(max, `must be at most ${max} characters`),
    v.check(isSingleLine, 'must be a single line'),
    v.check(isStorableText, 'contains a character that cannot be stored'),
  )

/** `schema`, or null; an empty text (after trimming) reads as null too. */
export const emptyAsNull = <T extends v.GenericSchema<string, string>>(schema: T) =>
  v.pipe(
    v.nullable(schema),
    v.transform((s) => (s ? s : null)),
  )
