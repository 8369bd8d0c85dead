import { constants, deflateRawSync, deflateSync } from 'node:zlib'

/**
 * A PDF file of the given objects (numbered from 1 in order, bodies as latin1 text so bytes pass unchanged),
 * with its cross-reference table and a trailer naming object 1 as the catalog.
 */
function pdfFile(objects: string[], trailer = ''): Buffer {
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${trailer} >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

const stream = (data: string, dictionary = '') =>
  `<< /Length ${Buffer.byteLength(data, 'latin1')}${dictionary} >>\nstream\n${data}\nendstream`

/** A page's dictionary, in the page tree `parent`, showing content stream `contents` in Helvetica (object 3). */
const pageObject = (parent: number, contents: number) =>
  `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${contents} 0 R >>`

const helvetica = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'

/**
 * A small, valid PDF made here (no fixture file): each page's lines in Helvetica at the given sizes, one
 * line under another, with the document's title in its Info dictionary.
 */
export function makePdf(pages: Array<Array<{ text: string; size: number }>>, title?: string): Buffer {
  const objects: string[] = []
  const add = (body: string) => objects.push(body) // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('') // the page tree, filled in once the pages are numbered
  add(helvetica)
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`)
  const kids: number[] = []
  for (const lines of pages) {
    let y = 800
    const content = lines
      .map(({ text, size }) => {
        y -= size * 1.6
        return `BT /F1 ${size} Tf 50 ${y} Td (${escape(text)}) Tj ET`
      })
      .join('\n')
    add(stream(content))
    add(pageObject(2, objects.length))
    kids.push(objects.length)
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`
  if (title) add(`<< /Title (${escape(title)}) >>`)
  return pdfFile(objects, title ? ` /Info ${objects.length} 0 R` : '')
}

/** The PDF the reader tests read: two pages, a title, two heading levels and body text. */
export function samplePdf(): Buffer {
  return makePdf(
    [
      [
        { text: 'Rerankers in practice', size: 24 },
        { text: 'PDF-BODY-MARKER: a reranker scores each candidate against the query.', size: 11 },
        { text: 'It reads the query and the document together.', size: 11 },
        { text: 'Why it helps', size: 16 },
        { text: 'Precision at the top of the list rises.', size: 11 },
      ],
      [
        { text: 'Numbers', size: 16 },
        { text: 'PDF-PAGE-TWO-MARKER: nDCG rose from 52.1 to 61.9.', size: 11 },
      ],
    ],
    'Rerankers in practice (PDF)',
  )
}

/**
 * zlib data that inflates to `mib` MiB of zeros, about 1 KB a MiB, made without ever holding the zeros: one
 * MiB deflated and flushed to a byte boundary with its history reset, so the same bytes can follow
 * themselves; then an empty final block and the Adler-32 of the whole (for zeros: 1, and their count in b).
 */
export function deflatedZeros(mib: number): Buffer {
  const mebibyte = deflateRawSync(Buffer.alloc(1 << 20), { level: 9, finishFlush: constants.Z_FULL_FLUSH })
  const adler = Buffer.alloc(4)
  adler.writeUInt32BE(((((mib * 2 ** 20) % 65521) << 16) | 1) >>> 0)
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array(mib).fill(mebibyte), Buffer.from([0x03, 0x00]), adler])
}

/**
 * A compression bomb (issue 38): one page whose FlateDecode content stream inflates to `mib` MiB of zeros
 * (300 MiB in a 311 KB file; the 10 MiB body limit holds about 10 GiB), then a line of text.
 */
export function pdfBomb(mib: number): Buffer {
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    helvetica,
    pageObject(2, 5),
    stream(deflatedZeros(mib).toString('latin1'), ' /Filter /FlateDecode'),
  ])
}

/**
 * A bomb in two layers, which pdf.js's own decoder expands rather than the runtime's zlib: FlateDecode of
 * RunLengthDecode data (each two bytes: 128 zeros), `mib` MiB in about 2 KB per 100 MiB.
 */
export function layeredPdfBomb(mib: number): Buffer {
  const runs = Buffer.alloc(mib * 8192 * 2 + 1)
  for (let i = 0; i < runs.length - 1; i += 2) runs[i] = 0x81 // 257 − 0x81 = 128 copies of the next byte (0)
  runs[runs.length - 1] = 0x80 // the end of the data
  return pdfFile([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    helvetica,
    pageObject(2, 5),
    stream(deflateSync(runs, { level: 9 }).toString('latin1'), ' /Filter [/FlateDecode /RunLengthDecode]'),
  ])
}

/** A page tree whose only kid is the tree itself (issue 38: 355 bytes that answered 500). */
export function circularPdf(): Buffer {
  return pdfFile(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>'])
}

/** `count` pages (about 150 bytes each), every one showing the same line. */
export const manyPagesPdf = (count: number) => slowPdf(count, 0)

/**
 * `count` pages sharing one uncompressed content stream of `kb` KB of short lines (nothing to inflate): text
 * that takes pdf.js seconds to read (500 × 100 KB: 50 MB of operators in a 150 KB file).
 */
export function slowPdf(count: number, kb: number): Buffer {
  const line = 'BT /F1 11 Tf 50 700 Td (Words that take time to read.) Tj ET\n'
  const content = line.repeat(Math.max(1, Math.ceil((kb * 1024) / line.length)))
  const objects = ['<< /Type /Catalog /Pages 2 0 R >>', '', helvetica, stream(content)]
  const kids: number[] = []
  for (let i = 0; i < count; i++) kids.push(objects.push(pageObject(2, 4)))
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${count} >>`
  return pdfFile(objects)
}

/** The sample PDF cut off a third of the way in: its pages, cross-reference table and trailer are gone. */
export function truncatedPdf(): Buffer {
  const whole = samplePdf()
  return whole.subarray(0, Math.floor(whole.length / 3))
}

/** A PDF header and then bytes that are no PDF at all. */
export function garbagePdf(): Buffer {
  let state = 38
  const noise = Buffer.alloc(4096, 0).map(() => (state = (state * 1103515245 + 12345) % 2147483648) >> 23)
  return Buffer.concat([Buffer.from('%PDF-1.7\n', 'latin1'), noise])
}
