import { crc32, createDeflate, inflate } from 'node:zlib'
import { promisify } from 'node:util'

const inflated = promisify(inflate)
const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

interface Chunk {
  type: string
  data: Buffer
}

interface ParsedPng {
  width: number
  height: number
  /** Bytes per pixel (8-bit samples). */
  bpp: number
  /** IHDR's bytes after width and height: bit depth, colour type, compression, filter and interlace methods. */
  format: Buffer
  /** Chunks before the image data (colour space and the like), written again in the joined image. */
  before: Chunk[]
  idat: Buffer[]
}

const BYTES_PER_PIXEL: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 }

function parse(png: Buffer): ParsedPng {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG')
  const chunks: Chunk[] = []
  for (let at = 8; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at)
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) })
    at += 12 + length
  }
  const header = chunks[0]
  if (header?.type !== 'IHDR') throw new Error('PNG without IHDR')
  const [depth, colour, , , interlace] = header.data.subarray(8)
  const bpp = BYTES_PER_PIXEL[colour]
  if (depth !== 8 || interlace !== 0 || !bpp) throw new Error(`PNG format not joined: depth ${depth}, colour ${colour}`)
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT')
  return {
    width: header.data.readUInt32BE(0),
    height: header.data.readUInt32BE(4),
    bpp,
    format: header.data.subarray(8, 13),
    before: chunks.slice(1, first).filter((chunk) => chunk.type !== 'IDAT'),
    idat: chunks.filter((chunk) => chunk.type === 'IDAT').map((chunk) => chunk.data),
  }
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'latin1')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/**
 * Makes a strip's first row readable without the row above it (which, in the joined image, is the previous
 * strip's last row rather than the zeros its filter was computed against): Up against zeros is None, Paeth
 * against zeros is Sub, and Average is undone into None. None and Sub never look up.
 */
function detachFirstRow(raw: Buffer, rowBytes: number, bpp: number): void {
  const filter = raw[0]
  if (filter === 2) raw[0] = 0
  else if (filter === 4) raw[0] = 1
  else if (filter === 3) {
    for (let i = 1; i <= rowBytes; i++) raw[i] = (raw[i] + ((i > bpp ? raw[i - bpp] : 0) >> 1)) & 0xff
    raw[0] = 0
  }
}

/**
 * Joins PNG strips of one width, top to bottom, into one PNG: each strip's image data inflated, its first row
 * detached from the row above, and all of it deflated again as one stream. The work runs on libuv's threads
 * (zlib), never on the event loop; one strip is answered as it is.
 */
export async function joinPngStrips(strips: Buffer[]): Promise<Buffer> {
  if (strips.length === 1) return strips[0]
  const parsed = strips.map(parse)
  const [top] = parsed
  for (const strip of parsed)
    if (strip.width !== top.width || !strip.format.equals(top.format)) throw new Error('PNG strips differ in format')
  const height = parsed.reduce((sum, strip) => sum + strip.height, 0)
  const rowBytes = top.width * top.bpp
  const deflate = createDeflate({ level: 6 })
  const out: Buffer[] = []
  deflate.on('data', (data: Buffer) => out.push(chunk('IDAT', data)))
  const finished = new Promise<void>((resolve, reject) => deflate.once('end', resolve).once('error', reject))
  for (const [index, strip] of parsed.entries()) {
    const raw = await inflated(Buffer.concat(strip.idat))
    if (raw.length !== strip.height * (rowBytes + 1)) throw new Error('PNG strip of the wrong size')
    if (index > 0) detachFirstRow(raw, rowBytes, top.bpp)
    if (!deflate.write(raw)) await new Promise((resolve) => deflate.once('drain', resolve))
  }
  deflate.end()
  await finished
  const header = Buffer.alloc(13)
  header.writeUInt32BE(top.width, 0)
  header.writeUInt32BE(height, 4)
  top.format.copy(header, 8)
  return Buffer.concat([
    SIGNATURE,
    chunk('IHDR', header),
    ...top.before.map((c) => chunk(c.type, c.data)),
    ...out,
    chunk('IEND', Buffer.alloc(0)),
  ])
}
