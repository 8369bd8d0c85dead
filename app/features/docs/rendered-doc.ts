export interface DocHeading {
  id: string
  text: string
  level: number
}

/** A page as the screen draws it: Markdown rendered to HTML, and code blocks left whole for their copy button. */
export type DocBlock =
  { kind: 'html'; html: string } | { kind: 'code'; language: string; code: string; runnable: boolean; answer: boolean }

export interface RenderedDoc {
  blocks: DocBlock[]
  /** The `##` and `###` headings, for "On this page". */
  headings: DocHeading[]
}
