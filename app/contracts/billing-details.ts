/**
 * Billing details for invoices: the name, postal address and tax id an account wants printed on them. The
 * same checks run in the dashboard's form (in the visitor's language) and on the API (as `{detail}`).
 */
import * as v from 'valibot'
import { presentedKey } from './common'

export const billingLimits = { name: 200, address: 500, addressLines: 6, taxId: 40 } as const

/**
 * What the invoice can print: Latin letters with their accents (the PDF's standard font, Windows-1252),
 * digits and punctuation. Other scripts would come out blank on the document, so they are refused up front.
 */
const printable =
  /^[\u0020-\u007E\u00A0-\u00FF\u0152\u0153\u0160\u0161\u0178\u017D\u017E\u2013\u2014\u2018\u2019\u201C\u201D\u20AC]*$/
const taxIdShape = /^[A-Za-z0-9][A-Za-z0-9 .\-/]*$/

export type BillingField = 'name' | 'address' | 'tax_id'
export type BillingProblem = 'missing' | 'too_long' | 'too_many_lines' | 'not_printable' | 'tax_id_shape'

export interface BillingDetailsInput {
  name: string
  address: string
  tax_id?: string | null
}

/** Each field's first problem, in the form's order; none when the details can go on an invoice. */
export function billingProblems(input: BillingDetailsInput): Array<{ field: BillingField; problem: BillingProblem }> {
  const problems: Array<{ field: BillingField; problem: BillingProblem }> = []
  const name = input.name.trim()
  const address = input.address.trim()
  const taxId = (input.tax_id ?? '').trim()
  if (!name) problems.push({ field: 'name', problem: 'missing' })
  else if (name.length > billingLimits.name) problems.push({ field: 'name', problem: 'too_long' })
  else if (!printable.test(name)) problems.push({ field: 'name', problem: 'not_printable' })
  const lines = address.split(/\r?\n/)
  if (!address) problems.push({ field: 'address', problem: 'missing' })
  else if (address.length > billingLimits.address) problems.push({ field: 'address', problem: 'too_long' })
  else if (lines.length > billingLimits.addressLines) problems.push({ field: 'address', problem: 'too_many_lines' })
  else if (!lines.every((line) => printable.test(line))) problems.push({ field: 'address', problem: 'not_printable' })
  if (taxId.length > billingLimits.taxId) problems.push({ field: 'tax_id', problem: 'too_long' })
  else if (taxId && !taxIdShape.test(taxId)) problems.push({ field: 'tax_id', problem: 'tax_id_shape' })
  return problems
}

const englishProblem: Record<BillingProblem, string> = {
  missing: 'is required',
  too_long: 'is too long',
  too_many_lines: `has more than ${billingLimits.addressLines} lines`,
  not_printable: 'may hold Latin letters, digits and punctuation only (the invoice cannot print other scripts)',
  tax_id_shape: 'may hold letters, digits, spaces, dots, dashes and slashes only',
}

export const billingDetailsBody = v.pipe(
  v.strictObject({
    name: v.pipe(v.string(), v.maxLength(1000)),
    address: v.pipe(v.string(), v.maxLength(2000)),
    tax_id: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(200)))),
  }),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return
    for (const { field, problem } of billingProblems(dataset.value))
      addIssue({
        message: englishProblem[problem],
        path: [{ type: 'object', origin: 'value', input: dataset.value, key: field, value: dataset.value[field] }],
      })
  }),
  v.transform((input) => ({
    name: input.name.trim(),
    address: input.address.trim().replace(/\r\n/g, '\n'),
    tax_id: input.tax_id?.trim() || null,
  })),
)

export const billingDetailsAnswer = v.object({
  details: v.nullable(v.object({ name: v.string(), address: v.string(), tax_id: v.nullable(v.string()) })),
})
export type BillingDetails = NonNullable<v.InferOutput<typeof billingDetailsAnswer>['details']>

export const billingDetailsInput = v.strictObject({
  apiKey: v.optional(presentedKey),
  details: billingDetailsBody,
})
