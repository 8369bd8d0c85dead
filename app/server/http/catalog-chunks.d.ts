/** Provided by build/catalog-chunks.ts: each locale's catalog chunks in the client build, by `name:locale`. */
declare module 'virtual:catalog-chunks' {
  const chunks: Readonly<Record<string, string>>
  export default chunks
}
