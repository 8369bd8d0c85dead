import { describe, expect, it } from 'vitest'
import { decodeCursor, encodeCursor } from '~/lib/cursor'

describe('transaction cursors', () => {
  it('come back as the entry id they were made from', () => {
    for (const id of [1, 42, 9_007_199_254_740_991]) expect(decodeCursor(encodeCursor(id))).toBe(id)
  })

  it('read the same as the cursors clients already hold (Node base64url of e<id>)', () => {
    expect(encodeCursor(1234)).toBe(Buffer.from('e1234').toString('base64url'))
  })

  it('refuse anything this API did not make', () => {
    for (const cursor of ['', 'not-a-cursor!', Buffer.from('x12').toString('base64url'), 'a'.repeat(65), '%%%'])
      expect(decodeCursor(cursor)).toBeUndefined()
  })
})
