import * as v from 'valibot'
import { interfaceLocales } from '#config'
import { isSingleLine } from './common'

/**
 * The contact-sales form, shared by the browser (per-field errors before sending) and the server function
 * (the real check). Issue messages are codes; the form turns them into translated sentences.
 */
export const contactFields = {
  // Name and company go into the mail's subject: a line break there would forge headers.
  name: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('required'),
    v.maxLength(200, 'too_long'),
    v.check(isSingleLine, 'single_line'),
  ),
  email: v.pipe(v.string(), v.trim(), v.nonEmpty('required'), v.maxLength(254, 'too_long'), v.email('invalid_email')),
  company: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('required'),
    v.maxLength(200, 'too_long'),
    v.check(isSingleLine, 'single_line'),
  ),
  message: v.pipe(
    v.string(),
    v.trim(),
    v.nonEmpty('required'),
    v.minLength(20, 'too_short'),
    v.maxLength(5000, 'too_long'),
  ),
}
export type ContactField = keyof typeof contactFields
export type ContactIssue = 'required' | 'too_long' | 'too_short' | 'invalid_email' | 'single_line'

export const contactFormSchema = v.object(contactFields)

export const contactLeadInput = v.object({
  ...contactFields,
  locale: v.picklist(interfaceLocales),
  captcha: v.pipe(v.string(), v.nonEmpty(), v.maxLength(20_000)),
})
export type ContactLeadInput = v.InferOutput<typeof contactLeadInput>

export type ContactResult = { ok: true } | { ok: false; reason: 'captcha' | 'rate_limited' }

/** First issue per field, for the form. */
export function contactFieldErrors(values: Record<ContactField, string>): Partial<Record<ContactField, ContactIssue>> {
  const result = v.safeParse(contactFormSchema, values, { abortPipeEarly: true })
  if (result.success) return {}
  const errors: Partial<Record<ContactField, ContactIssue>> = {}
  for (const issue of result.issues) {
    const field = v.getDotPath(issue) as ContactField | null
    if (field && !errors[field]) errors[field] = issue.message as ContactIssue
  }
  return errors
}
