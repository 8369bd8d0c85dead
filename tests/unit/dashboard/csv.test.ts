import { describe, expect, it } from 'vitest'
import { csvField, toCsv, transactionsCsv } from '~/features/dashboard/usage/csv'

describe('CSV export', () => {
  it('leaves plain values unquoted', () => {
    expect(csvField('embeddings')).toBe('embeddings')
    expect(csvField(-1200)).toBe('-1200')
    expect(csvField(null)).toBe('')
  })

  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"')
    expect(csvField('say "hi"')).toBe('"say ""hi"""')
    expect(csvField('line\nbreak')).toBe('"line\nbreak"')
  })

  it('neutralises cells a spreadsheet would evaluate as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`)
    expect(csvField('@sum')).toBe("'@sum")
  })

  it('writes a header and CRLF-terminated rows', () => {
    expect(toCsv(['a', 'b'], [[1, 'x,y']])).toBe('a,b\r\n1,"x,y"\r\n')
  })

  it('exports transactions with one column per field', () => {
    const csv = transactionsCsv([
      {
        id: '2',
        type: 'consume',
        amount: -300,
        balance_after: 9_999_700,
        product: 'embeddings',
        model: 'emb, v3',
        created_at: '2025-01-02T03:04:05.000Z',
      },
    ])
    expect(csv).toBe(
      'id,created_at,type,amount,balance_after,product,model\r\n2,2025-01-02T03:04:05.000Z,consume,-300,9999700,embeddings,"emb, v3"\r\n',
    )
  })
})
