import * as v from 'valibot'
import { persistedStore } from './persisted-store'

/**
 * Spec §3's license config, persisted in local storage (§9) under its own key. The spec does not show its
 * fields, so it is modelled as a plain object of JSON values: whatever was stored comes back, and anything
 * else found under the key (not JSON, an array, a number) reads as the empty config instead of failing the page.
 */
// Arrays, dates and class instances are objects too; only a plain {…} is a JSON object.
const isPlainObject = (value: unknown) =>
  typeof value === 'object' &&
  value !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null)
const jsonObject = (): v.GenericSchema<unknown, Record<string, unknown>> =>
  v.pipe(v.unknown(), v.check(isPlainObject), v.record(v.string(), jsonValue))
const jsonValue: v.GenericSchema<unknown> = v.lazy(() =>
  v.union([v.string(), v.number(), v.boolean(), v.null(), v.array(jsonValue), jsonObject()]),
)
const licenseConfigSchema = jsonObject()

export type LicenseConfig = v.InferOutput<typeof licenseConfigSchema>

export const LICENSE_CONFIG_KEY = 'licenseConfig'
const empty: LicenseConfig = {}

const persisted = persistedStore(LICENSE_CONFIG_KEY, licenseConfigSchema, empty)

export const getLicenseConfig = persisted.get

/** Replaces the stored config; a value that is not a plain JSON object is refused with a TypeError. */
export function setLicenseConfig(config: LicenseConfig): void {
  const result = v.safeParse(licenseConfigSchema, config)
  if (!result.success) throw new TypeError('License config must be an object of JSON values')
  persisted.set(result.output)
}

/** The config; the server snapshot is empty, so hydration never mismatches. */
export const useLicenseConfig = persisted.use
