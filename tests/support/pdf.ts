/**
 * A small, valid PDF made here (no fixture file): each page's lines in Helvetica at the given sizes, one
 * line under another, with the document's title in its Info dictionary.
 */
export function makePdf(pages: Array<Array<{ text: string; size: number }>>, title?: string): Buffer {
  const objects: string[] = []
  const add = (body: string) => objects.push(body) // object number = index + 1
  add('<< /Type /Catalog /Pages 2 0 R >>')
  add('') // the page tree, filled in once the pages are numbered
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>')
  const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`)
  const kids: number[] = []
  for (const lines of pages) {
    let y = 800
    const stream = lines
      .map(({ text, size }) => {
        y -= size * 1.6
        return `BT /F1 ${size} Tf 50 ${y} Td (${escape(text)}) Tj ET`
      })
      .join('\n')
    add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`)
    const content = objects.length
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${content} 0 R >>`,
    )
    kids.push(objects.length)
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`
  if (title) add(`<< /Title (${escape(title)}) >>`)
  const info = title ? objects.length : undefined
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${info ? ` /Info ${info} 0 R` : ''} >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
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
