/** A module bundled whole, as the source of a worker thread (build/vite-thread-source.ts). */
declare module '*?thread' {
  const source: string
  export default source
}
