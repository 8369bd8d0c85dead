/**
 * `X-Markdown-Chunking`: the Markdown in chunks of at most `maxLength` characters, for a caller that embeds
 * or indexes them. A heading starts a new chunk; paragraphs (blocks between blank lines) are kept whole and
 * gathered while they fit; a block longer than a chunk is cut at line ends, then at `maxLength`.
 */
export function markdownChunks(markdown: string, maxLength: number): string[] {
  const chunks: string[] = []
  let current = ''
  const flush = () => {
    if (current.trim()) chunks.push(current.trim())
    current = ''
  }
  for (const block of markdown.split(/\n{2,}/)) {
    if (!block.trim()) continue
    if (current && (/^#{1,6}\s/.test(block) || current.length + 2 + block.length > maxLength)) flush()
    if (block.length <= maxLength) {
      current = current ? `${current}\n\n${block}` : block
      continue
    }
    for (const piece of piecesOf(block, maxLength)) {
      flush()
      current = piece
    }
  }
  flush()
  return chunks
}

/** A block longer than a chunk, cut at line ends where it can be and at `maxLength` where it cannot. */
function piecesOf(block: string, maxLength: number): string[] {
  const pieces: string[] = []
  let piece = ''
  for (const line of block.split('\n')) {
    for (let at = 0; at < Math.max(line.length, 1); at += maxLength) {
      const part = line.slice(at, at + maxLength)
      if (piece && piece.length + 1 + part.length > maxLength) {
        pieces.push(piece)
        piece = ''
      }
      piece = piece ? `${piece}\n${part}` : part
    }
  }
  if (piece) pieces.push(piece)
  return pieces
}
