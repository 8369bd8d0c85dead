import { deflateSync, inflateSync } from 'node:zlib'

/**
 * A PNG decoder and encoder small enough to trust by reading (8-bit grey, RGB or RGBA, not interlaced): the
 * tests compare the pixels of the screenshots the reader joins from strips with what was drawn.
 */

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 }

function chunks(png: Buffer): Array<{ type: string; data: Buffer }> {
  const found: Array<{ type: string; data: Buffer }> = []
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at)
    found.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) })
    at += 12 + length
  }
  return found
}

const paeth = (a: number, b: number, c: number) => {
  const p = a + b - c
  const pa = Math.abs(p - a)
  const pb = Math.abs(p - b)
  const pc = Math.abs(p - c)
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c
}

/** The image's size, bytes per pixel and pixels (row after row, no filter bytes). */
export function decodePng(png: Buffer): { width: number; height: number; bpp: number; pixels: Buffer } {
  const all = chunks(png)
  const header = all[0].data
  const width = header.readUInt32BE(0)
  const height = header.readUInt32BE(4)
  const bpp = CHANNELS[header[9]]
  const raw = inflateSync(Buffer.concat(all.filter((c) => c.type === 'IDAT').map((c) => c.data)))
  const row = width * bpp
  if (raw.length !== height * (row + 1)) throw new Error(`image data of ${raw.length} bytes for ${width}×${height}`)
  const pixels = Buffer.alloc(height * row)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (row + 1)]
    for (let x = 0; x < row; x++) {
      const value = raw[y * (row + 1) + 1 + x]
      const a = x >= bpp ? pixels[y * row + x - bpp] : 0
      const b = y > 0 ? pixels[(y - 1) * row + x] : 0
      const c = x >= bpp && y > 0 ? pixels[(y - 1) * row + x - bpp] : 0
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]
      if (predicted === undefined) throw new Error(`filter ${filter}`)
      pixels[y * row + x] = (value + predicted) & 0xff
    }
  }
  return { width, height, bpp, pixels }
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})
const crc = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const byte of bytes) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const out = Buffer.alloc(4 + body.length + 4)
  out.writeUInt32BE(data.length, 0)
  body.copy(out, 4)
  out.writeUInt32BE(crc(body), 4 + body.length)
  return out
}

/** An RGB PNG of `pixels`, each row filtered with `filterOf(y)` (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth). */
export function encodePng(width: number, height: number, pixels: Buffer, filterOf: (y: number) => number): Buffer {
  const bpp = 3
  const row = width * bpp
  const raw = Buffer.alloc(height * (row + 1))
  for (let y = 0; y < height; y++) {
    const filter = filterOf(y)
    raw[y * (row + 1)] = filter
    for (let x = 0; x < row; x++) {
      const a = x >= bpp ? pixels[y * row + x - bpp] : 0
      const b = y > 0 ? pixels[(y - 1) * row + x] : 0
      const c = x >= bpp && y > 0 ? pixels[(y - 1) * row + x - bpp] : 0
      const predicted = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]
      raw[y * (row + 1) + 1 + x] = (pixels[y * row + x] - predicted) & 0xff
    }
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ])
}
