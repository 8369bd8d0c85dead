import { describe, expect, it } from 'vitest'
import { chunkText } from '~/server/providers/inference/segment-chunks'
import { threadCpuMs } from '../../support/thread-cpu'

const texts = (text: string, maxLength: number, start?: number, end?: number) =>
  chunkText(text, maxLength, start, end).map(([from, to]) => text.slice(from, to))

/** Checks the invariants every chunking keeps and returns the chunks' texts. */
function checkedChunks(text: string, maxLength: number): string[] {
  const positions = chunkText(text, maxLength)
  let expectedStart = 0
  for (const [start, end] of positions) {
    expect(start).toBe(expectedStart)
    expect(end).toBeGreaterThan(start)
    if (maxLength > 1) expect(end - start).toBeLessThanOrEqual(maxLength)
    // Never between the halves of a surrogate pair.
    expect(text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff).toBe(false)
    expectedStart = end
  }
  expect(expectedStart).toBe(text.length)
  return positions.map(([start, end]) => text.slice(start, end))
}

describe('chunking text', () => {
  it('keeps a text that fits as one chunk', () => {
    expect(texts('Short text.', 100)).toEqual(['Short text.'])
  })

  it('prefers a paragraph break over a later sentence end', () => {
    const text = 'One. Two.\n\nThree four five. Six seven eight nine.'
    // Within 32 characters the last sentence end is after "five.", later than the blank line, which wins.
    expect(checkedChunks(text, 32)).toEqual(['One. Two.\n\n', 'Three four five. ', 'Six seven eight nine.'])
  })

  it('prefers a sentence end over a later space', () => {
    expect(checkedChunks('The cat sat. The dog ran far away', 25)).toEqual(['The cat sat. ', 'The dog ran far away'])
  })

  it('breaks at the last space when there is no sentence end', () => {
    expect(checkedChunks('alpha beta gamma delta epsilon', 12)).toEqual(['alpha beta ', 'gamma delta ', 'epsilon'])
  })

  it('cuts hard when there is no space at all', () => {
    expect(checkedChunks('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij'])
  })

  it('counts closing quotes and brackets into the sentence, and "!" and "?" as sentence ends', () => {
    expect(checkedChunks('He said "stop." Then (quietly!) left? Yes it', 20)).toEqual([
      'He said "stop." ',
      'Then (quietly!) ',
      'left? Yes it',
    ])
    expect(checkedChunks('She asked (why?) and he left. Later', 28)).toEqual([
      'She asked (why?) ',
      'and he left. Later',
    ])
  })

  it('ends CJK sentences at 。！？ without a following space', () => {
    expect(checkedChunks('東京は日本の首都です。大阪は大きい都市です！', 14)).toEqual([
      '東京は日本の首都です。',
      '大阪は大きい都市です！',
    ])
  })

  it('does not treat a period inside a number or a word as a sentence end', () => {
    expect(checkedChunks('Version 3.14 of example.com is out now', 20)).toEqual([
      'Version 3.14 of ',
      'example.com is out ',
      'now',
    ])
  })

  it('never splits a surrogate pair', () => {
    const text = '😀😀😀😀😀'
    for (const max of [2, 3, 5]) {
      const chunks = checkedChunks(text, max)
      for (const chunk of chunks) expect(chunk).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/)
    }
    // A limit of 1 cannot hold a two-unit character: it becomes a chunk of its own.
    expect(checkedChunks('a😀b', 1)).toEqual(['a', '😀', 'b'])
  })

  it('keeps the white space at a break in the chunk before it', () => {
    expect(checkedChunks('First part.\n\n\nSecond part.', 16)).toEqual(['First part.\n\n\n', 'Second part.'])
  })

  it('cuts inside a run of white space longer than the room left', () => {
    const text = `word${' '.repeat(20)}next`
    expect(checkedChunks(text, 10)).toEqual([`word${' '.repeat(6)}`, ' '.repeat(10), `${' '.repeat(4)}next`])
  })

  it('treats CRLF and Unicode paragraph separators as paragraph breaks', () => {
    expect(checkedChunks('One. Two.\r\n\r\nThree. Four five six', 22)[0]).toBe('One. Two.\r\n\r\n')
    expect(checkedChunks('One. Two.\u2029Three. Four five six', 22)[0]).toBe('One. Two.\u2029')
  })

  it('chunks only the range it is given, with positions in the whole text', () => {
    const text = 'Skip this. Chunk this part. And this one. Not this.'
    const start = text.indexOf('Chunk')
    const end = text.indexOf('Not')
    const positions = chunkText(text, 20, start, end)
    expect(positions[0][0]).toBe(start)
    expect(positions.at(-1)![1]).toBe(end)
    expect(texts(text, 20, start, end)).toEqual(['Chunk this part. ', 'And this one. '])
    expect(chunkText(text, 20, 5, 5)).toEqual([])
  })

  it('keeps every invariant on long mixed text, at every limit', () => {
    const paragraph =
      'Lorem ipsum dolor sit amet. Consectetur adipiscing elit! 東京の天気。 😀 emoji, 𠮷 rare Han? Yes.'
    const text = Array.from({ length: 12 }, (_, i) => paragraph.slice(i % 17) + (i % 3 === 0 ? '\n\n' : ' ')).join('')
    for (const max of [1, 2, 3, 7, 16, 50, 101, 1000, 5000]) checkedChunks(text, max)
  })

  it('splits a million characters quickly', async () => {
    const text = 'Sentence number one is here. '.repeat(35_000)
    let positions: ReturnType<typeof chunkText> = []
    expect(await threadCpuMs(() => (positions = chunkText(text, 1000)), 1)).toBeLessThan(1000)
    expect(positions.length).toBeGreaterThan(1000)
  })

  it('refuses a limit below 1 and a range outside the text', () => {
    expect(() => chunkText('abc', 0)).toThrow(/maxLength/)
    expect(() => chunkText('abc', 1.5)).toThrow(/maxLength/)
    expect(() => chunkText('abc', 2, 2, 5)).toThrow(/outside the text/)
  })

  it('chunks a long run of sentence marks in linear time (issue 26: 100,000 "!" took minutes)', () => {
    // The old pattern retried the run from each mark looking for white space after it: 187 s here.
    for (const mark of ['!', '.', '?"']) {
      const text = mark.repeat(100_000)
      const chunks = chunkText(text, 1000)
      expect(chunks).toHaveLength(text.length / 1000)
      expect(chunks.at(-1)).toEqual([text.length - 1000, text.length])
    }
    // A run that does end a sentence still breaks after its last mark.
    expect(chunkText(`${'!'.repeat(50)} next`, 52)).toEqual([
      [0, 51],
      [51, 55],
    ])
  })
})
