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

export const isoDate = v.pipe(v.string(), v.isoDate('must be a date (YYYY-MM-DD)'))

/** An API key as a caller presents it; whether it is one of ours is the server's business. */
export const presentedKey = v.pipe(v.string(), v.maxLength(200))

export const errorAnswer = v.object({
  detail: v.union([
    v.string(),
    v.array(v.object({ loc: v.array(v.union([v.string(), v.number()])), msg: v.string(), type: v.string() })),
  ]),
})
export type ErrorAnswer = v.InferOutput<typeof errorAnswer>
