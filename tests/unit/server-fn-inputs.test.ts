import { describe, expect, it } from 'vitest'
import { contactFieldErrors, contactLeadInput } from '~/contracts/contact'
import { balanceNotificationInput, keyedInput, transactionPageInput, transferInput } from '~/contracts/dashboard'
import { refuseInvalidThresholds } from '~/server/api/billing'
import { InvalidInput, InvalidThresholds } from '~/server/domain/refusals'
import { validatorOf } from '~/server/http/input'

/** A server function's validator as Start runs it: the refusal it throws, or the input it passes on. */
function check<T>(validate: (input: never) => T, input: unknown): T | InvalidInput | InvalidThresholds {
  try {
    return validate(input as never)
  } catch (error) {
    if (error instanceof InvalidInput || error instanceof InvalidThresholds) return error
    throw error
  }
}

const key = `lds_${'a'.repeat(32)}`

describe('the dashboard server functions refuse what the REST routes refuse', () => {
  it('refuses a transfer that does not confirm revoking the sender, naming the field', () => {
    const refusal = check(validatorOf(transferInput), {
      apiKey: key,
      receiver_key: key,
      revoke_sender_key: 'false',
      captcha: 'x',
    })
    expect(refusal).toBeInstanceOf(InvalidInput)
    expect((refusal as InvalidInput).issues).toEqual([expect.objectContaining({ loc: ['body', 'revoke_sender_key'] })])
  })

  it('refuses fields the call does not know', () => {
    const refusal = check(validatorOf(keyedInput), { apiKey: key, admin: true })
    expect((refusal as InvalidInput).issues[0]).toMatchObject({ loc: ['body', 'admin'] })
  })

  it('turns a page size of text into a number within the REST limits', () => {
    expect(check(validatorOf(transactionPageInput), { apiKey: key, num_records: '50' })).toEqual({
      apiKey: key,
      num_records: 50,
      group_requests: 'false',
    })
    expect(check(validatorOf(transactionPageInput), { num_records: '101' })).toBeInstanceOf(InvalidInput)
    expect(check(validatorOf(transactionPageInput), { cursor: 'not-a-cursor!' })).toBeInstanceOf(InvalidInput)
  })

  it('answers a fourth threshold with the spec message, as the REST route does', () => {
    const validate = validatorOf(balanceNotificationInput, refuseInvalidThresholds)
    const four = { apiKey: key, thresholds: [4, 3, 2, 1], email: 'alerts@example.com' }
    expect(check(validate, four)).toBeInstanceOf(InvalidThresholds)
    expect(check(validate, { ...four, thresholds: [3, 2, 1] })).toMatchObject({ thresholds: [3, 2, 1] })
    expect(check(validate, { ...four, thresholds: [1], email: 'nobody' })).toBeInstanceOf(InvalidInput)
  })
})

describe('contact sales refuses names that would break the mail to sales', () => {
  const lead = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    company: 'Analytical Engines',
    message: 'We would like to talk about embeddings at scale.',
    locale: 'en-US',
    captcha: 'x',
  }

  it.each([
    ['name', 'Ada\r\nBcc: everyone@example.com'],
    ['company', 'Engines\nSubject: free tokens'],
    ['company', 'Engines\tLtd'],
    ['name', 'Ada\u0000'],
  ])('refuses a %s with a control character, naming the field', (field, value) => {
    const refusal = check(validatorOf(contactLeadInput), { ...lead, [field]: value })
    expect(refusal).toBeInstanceOf(InvalidInput)
    expect((refusal as InvalidInput).issues[0]).toMatchObject({ loc: ['body', field] })
    expect(contactFieldErrors({ ...lead, [field]: value })).toMatchObject({
      [field]: value.includes('\u0000') ? expect.any(String) : 'single_line',
    })
  })

  it('keeps line breaks in the message', () => {
    expect(
      check(validatorOf(contactLeadInput), { ...lead, message: 'Line one of our needs.\nLine two.' }),
    ).toMatchObject({ message: 'Line one of our needs.\nLine two.' })
  })
})
