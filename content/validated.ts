import * as v from 'valibot'

/**
 * Parses content where it is built, served and tested, so a bad entry stops the build; the browser
 * receives the very same data already checked and skips the validator code.
 */
export function validated<const TSchema extends v.GenericSchema>(schema: TSchema, data: v.InferInput<TSchema>): v.InferOutput<TSchema> {
  return import.meta.env.SSR === false ? (data as v.InferOutput<TSchema>) : v.parse(schema, data)
}
