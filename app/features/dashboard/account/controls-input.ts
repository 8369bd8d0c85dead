import { controlledProducts, type KeyControls, type KeyControlsInput } from '~/contracts/key-controls'
import { maxTokens } from '~/contracts/common'
import { MAX_ADDRESS_RANGES, normaliseRange, splitRanges } from '~/lib/address-ranges'
import { parseTokenAmount } from '../notifications/threshold-input'

/** The controls form as typed: caps as text (grouped digits allowed), ticked products and models, a day, ranges. */
export interface ControlsFormValues {
  dailyCap: string
  monthlyCap: string
  products: string[]
  models: string[]
  /** `YYYY-MM-DD`: the last UTC day the key works; empty for no expiry. */
  expiresOn: string
  ranges: string
}

/** What went wrong with each field, as a code the form words in the interface language. */
export type ControlsProblem =
  | { kind: 'cap-not-number' }
  | { kind: 'cap-too-small' }
  | { kind: 'cap-too-large'; max: number }
  | { kind: 'daily-over-monthly' }
  | { kind: 'no-product' }
  | { kind: 'no-model' }
  | { kind: 'expiry-past' }
  | { kind: 'range-invalid'; range: string }
  | { kind: 'too-many-ranges'; max: number }

export type ControlsErrors = Partial<
  Record<'dailyCap' | 'monthlyCap' | 'products' | 'models' | 'expiresOn' | 'ranges', ControlsProblem>
>

const today = (now: Date) => now.toISOString().slice(0, 10)

/** The key works through the chosen UTC day: it expires as the next one begins. */
export function expiryOf(day: string): string {
  const next = new Date(`${day}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return next.toISOString()
}

/** The last day a stored expiry lets the key work (the inverse of `expiryOf`). */
export function lastDayOf(expiresAt: string): string {
  return new Date(Date.parse(expiresAt) - 1).toISOString().slice(0, 10)
}

/** The form's starting values from stored controls; every box is ticked where nothing is limited. */
export function formValuesOf(
  controls: KeyControls,
  servedModels: string[],
  group: (n: number) => string,
): ControlsFormValues {
  return {
    dailyCap: controls.daily_cap === null ? '' : group(controls.daily_cap),
    monthlyCap: controls.monthly_cap === null ? '' : group(controls.monthly_cap),
    products: controls.allowed_products ?? [...controlledProducts],
    models: controls.allowed_models ?? servedModels,
    expiresOn: controls.expires_at === null ? '' : lastDayOf(controls.expires_at),
    ranges: (controls.allowed_networks ?? []).join('\n'),
  }
}

function capOf(text: string): { value: number | null } | { problem: ControlsProblem } {
  if (text.trim() === '') return { value: null }
  const amount = parseTokenAmount(text)
  if (!Number.isSafeInteger(amount)) return { problem: { kind: 'cap-not-number' } }
  if (amount < 1) return { problem: { kind: 'cap-too-small' } }
  if (amount > maxTokens) return { problem: { kind: 'cap-too-large', max: maxTokens } }
  return { value: amount }
}

/**
 * Checks the form with the server's rules and turns it into what the API takes: all products (or all served
 * models) ticked means no limit, so a model added to the server later is not shut out.
 */
export function validateControls(
  values: ControlsFormValues,
  servedModels: string[],
  now = new Date(),
): { success: true; output: KeyControlsInput } | { success: false; errors: ControlsErrors } {
  const errors: ControlsErrors = {}
  const daily = capOf(values.dailyCap)
  const monthly = capOf(values.monthlyCap)
  if ('problem' in daily) errors.dailyCap = daily.problem
  if ('problem' in monthly) errors.monthlyCap = monthly.problem
  if (
    'value' in daily &&
    'value' in monthly &&
    daily.value !== null &&
    monthly.value !== null &&
    daily.value > monthly.value
  )
    errors.dailyCap = { kind: 'daily-over-monthly' }
  if (values.products.length === 0) errors.products = { kind: 'no-product' }
  if (values.models.length === 0) errors.models = { kind: 'no-model' }
  if (values.expiresOn !== '' && !(values.expiresOn >= today(now))) errors.expiresOn = { kind: 'expiry-past' }
  const ranges = splitRanges(values.ranges)
  const wrong = ranges.find((range) => normaliseRange(range) === undefined)
  if (wrong !== undefined) errors.ranges = { kind: 'range-invalid', range: wrong }
  else if (ranges.length > MAX_ADDRESS_RANGES) errors.ranges = { kind: 'too-many-ranges', max: MAX_ADDRESS_RANGES }
  if (Object.keys(errors).length > 0 || 'problem' in daily || 'problem' in monthly) return { success: false, errors }
  const allProducts = controlledProducts.every((p) => values.products.includes(p))
  const allModels = servedModels.length > 0 && servedModels.every((m) => values.models.includes(m))
  return {
    success: true,
    output: {
      daily_cap: daily.value,
      monthly_cap: monthly.value,
      allowed_products: allProducts ? null : controlledProducts.filter((p) => values.products.includes(p)),
      allowed_models: allModels ? null : values.models,
      expires_at: values.expiresOn === '' ? null : expiryOf(values.expiresOn),
      allowed_networks: ranges.length === 0 ? null : ranges.map((r) => normaliseRange(r)!),
    },
  }
}
