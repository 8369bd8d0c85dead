import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { contactFieldErrors, contactLeadInput } from '~/contracts/contact'

const valid = {
  name: 'Ada Lovelace',
  email: 'ada@engines.example',
  company: 'Analytical Engines Ltd',
  message: 'We need embeddings for 40 million documents in 12 languages.',
  locale: 'de',
  captcha: 'eyJzb2x1dGlvbiI6e319',
}

describe('contact-sales input', () => {
  it('accepts a complete request and trims it', () => {
    const parsed = v.parse(contactLeadInput, { ...valid, name: '  Ada Lovelace  ' })
    expect(parsed.name).toBe('Ada Lovelace')
  })

  it('refuses a request without captcha response', () => {
    expect(v.safeParse(contactLeadInput, { ...valid, captcha: '' }).success).toBe(false)
  })

  it('refuses an unknown locale', () => {
    expect(v.safeParse(contactLeadInput, { ...valid, locale: 'xx' }).success).toBe(false)
  })

  it('names every missing field', () => {
    expect(contactFieldErrors({ name: ' ', email: '', company: '', message: '' })).toEqual({
      name: 'required',
      email: 'required',
      company: 'required',
      message: 'required',
    })
  })

  it('explains a malformed e-mail and a too-short message', () => {
    expect(contactFieldErrors({ ...valid, email: 'ada@', message: 'Call me' })).toEqual({
      email: 'invalid_email',
      message: 'too_short',
    })
  })

  it('refuses messages longer than 5000 characters', () => {
    expect(contactFieldErrors({ ...valid, message: 'x'.repeat(5001) })).toEqual({ message: 'too_long' })
  })
})
