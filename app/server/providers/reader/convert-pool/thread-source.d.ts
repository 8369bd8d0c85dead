/** A module bundled whole, as the source of a converter process (build/vite-thread-source.ts). */
declare module '*?thread' {
  const source: string
  export default source
}
