import { describe, expect, it } from 'vitest'
import { bulkRows, formatOf } from '~/server/api/bulk/rows'
import { inputBatches } from '~/server/api/bulk/input-batches'
import { resultLines } from '~/server/api/bulk/result-lines'

/** Bytes as an upload delivers them, cut into `pieces` chunks anywhere (inside characters too). */
async function* chunks(text: string, pieces = 7): AsyncGenerator<Uint8Array> {
  const bytes = new TextEncoder().encode(text)
  const step = Math.max(1, Math.ceil(bytes.length / pieces))
  for (let at = 0; at < bytes.length; at += step) yield bytes.slice(at, at + step)
}
const rowsOf = async (text: string, name: string) => {
  const rows = []
  for await (const row of bulkRows(chunks(text), formatOf(name, ''))) rows.push(row)
  return rows
}

describe('reading an uploaded file', () => {
  it('reads CSV with quotes, commas, line breaks inside a cell, a BOM, CRLF and an id column in any place', async () => {
    const csv = '\ufeffText,ID\r\n"Hello, ""world""",a1\r\n"two\nlines",a2\r\n,a3\r\nÜber café 東京,a4\r\n'
    expect(await rowsOf(csv, 'x.CSV')).toEqual([
      { text: 'Hello, "world"', id: 'a1' },
      { text: 'two\nlines', id: 'a2' },
      { text: 'Über café 東京', id: 'a4' },
    ])
  })

  it('reads TSV and plain lines', async () => {
    expect(await rowsOf('text\tlabel\nfirst\tx\nsecond\ty', 'data.tsv')).toEqual([
      { text: 'first' },
      { text: 'second' },
    ])
    expect(await rowsOf('α\r\n\r\n  β  \nγ', 'notes.txt')).toEqual([{ text: 'α' }, { text: 'β' }, { text: 'γ' }])
  })

  it('takes the format from the name, then the media type, and refuses what it cannot read', () => {
    expect(formatOf('a.csv', 'text/plain')).toBe('csv')
    expect(formatOf('blob', 'text/csv')).toBe('csv')
    expect(formatOf('blob', '')).toBe('lines')
    expect(() => formatOf('a.xlsx', '')).toThrow()
    expect(() => formatOf('a.json', 'application/json')).toThrow()
  })

  it('refuses an unterminated quote as an invalid CSV file', async () => {
    await expect(rowsOf('text\n"never closed\n', 'a.csv')).rejects.toMatchObject({
      issues: [{ loc: ['body', 'file'], type: 'csv' }],
    })
  })
})

describe('a stored input read back in batches', () => {
  const stored =
    Array.from({ length: 10 }, (_, i) =>
      JSON.stringify(i % 3 ? { t: `t${i}`, n: i } : { t: `t${i}`, i: `id${i}`, n: i }),
    ).join('\n') + '\n'

  it('starts at the batch asked for, with each batch knowing its first row', async () => {
    const batches = []
    for await (const batch of inputBatches(chunks(stored, 5), 4, 1)) batches.push(batch)
    expect(batches.map((b) => [b.index, b.first, b.texts, b.tokens])).toEqual([
      [1, 4, ['t4', 't5', 't6', 't7'], 4 + 5 + 6 + 7],
      [2, 8, ['t8', 't9'], 8 + 9],
    ])
    expect(batches[0].ids).toEqual([undefined, undefined, 'id6', undefined])
  })

  it('writes one JSON line per text, numbered from the batch start', () => {
    const text = new TextDecoder().decode(
      resultLines({ first: 4, ids: ['x"1', undefined] }, [new Float32Array([0.5, -0.25]), new Float32Array([1, 0])]),
    )
    expect(
      text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual([
      { index: 4, id: 'x"1', embedding: [0.5, -0.25] },
      { index: 5, embedding: [1, 0] },
    ])
  })
})
