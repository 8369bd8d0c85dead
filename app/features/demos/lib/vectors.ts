/** An embedding as the API sends it: a list of floats, or (embedding_type base64) little-endian float32 bytes. */
export function vectorOf(embedding: readonly number[] | string): number[] {
  if (typeof embedding !== 'string') return [...embedding]
  const bytes = Uint8Array.from(atob(embedding), (c) => c.charCodeAt(0))
  if (bytes.length % 4 !== 0) throw new Error(`base64 embedding of ${bytes.length} bytes is not a list of float32`)
  const view = new DataView(bytes.buffer)
  return Array.from({ length: bytes.length / 4 }, (_, i) => view.getFloat32(i * 4, true))
}
