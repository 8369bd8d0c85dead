import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { joinPngStrips } from '~/server/providers/reader/browser/png-strips'
import { decodePng, encodePng } from '../../support/png'

/**
 * Screenshots come from Chromium in strips (a whole one crossed its pipe as one message the event loop
 * parsed for half a second) and are joined into one PNG. Each strip's first row was filtered against a row of
 * zeros; in the joined image the row above is the previous strip's last, so that row is rewritten.
 */
describe('joining PNG strips', () => {
  const width = 7
  const rows = 6
  const strips = 5
  const pixels = randomBytes(width * 3 * rows * strips)
  const stripOf = (index: number) =>
    encodePng(
      width,
      rows,
      pixels.subarray(index * rows * width * 3, (index + 1) * rows * width * 3),
      // Strip i's first row uses filter i: None, Sub, Up, Average and Paeth each meet the seam once.
      (y) => (index + y) % 5,
    )

  it('gives the pixels of the whole image, whichever filter each strip starts with', async () => {
    const joined = decodePng(await joinPngStrips(Array.from({ length: strips }, (_, i) => stripOf(i))))
    expect({ width: joined.width, height: joined.height }).toEqual({ width, height: rows * strips })
    expect(joined.pixels.equals(pixels)).toBe(true)
  })

  it('answers one strip as it is, and refuses strips of different widths', async () => {
    const one = stripOf(0)
    expect(await joinPngStrips([one])).toBe(one)
    const narrower = encodePng(width - 1, rows, randomBytes((width - 1) * 3 * rows), () => 0)
    await expect(joinPngStrips([one, narrower])).rejects.toThrow('PNG strips differ in format')
  })
})
