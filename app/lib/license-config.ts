import { useSyncExternalStore } from 'react'
import * as v from 'valibot'

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

let current: LicenseConfig | undefined
const listeners = new Set<() => void>()

function readStored(): LicenseConfig {
  try {
    const result = v.safeParse(licenseConfigSchema, JSON.parse(localStorage.getItem(LICENSE_CONFIG_KEY) ?? '{}'))
    return result.success ? result.output : empty
  } catch {
    return empty
  }
}

export function getLicenseConfig(): LicenseConfig {
  if (typeof window === 'undefined') return empty
  return (current ??= readStored())
}

/** Replaces the stored config; a value that is not a plain JSON object is refused with a TypeError. */
export function setLicenseConfig(config: LicenseConfig): void {
  const result = v.safeParse(licenseConfigSchema, config)
  if (!result.success) throw new TypeError('License config must be an object of JSON values')
  current = result.output
  localStorage.setItem(LICENSE_CONFIG_KEY, JSON.stringify(current))
  listeners.forEach((listener) => listener())
}

function subscribe(listener: () => void) {
  listeners.add(listener)
  // Another tab changed it: re-read.
  const onStorage = (event: StorageEvent) => {
    if (event.key !== LICENSE_CONFIG_KEY) return
    current = readStored()
    listener()
  }
  window.addEventListener('storage', onStorage)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('storage', onStorage)
  }
}

/** The config; the server snapshot is empty, so hydration never mismatches. */
export function useLicenseConfig(): LicenseConfig {
  return useSyncExternalStore(subscribe, getLicenseConfig, () => empty)
}
