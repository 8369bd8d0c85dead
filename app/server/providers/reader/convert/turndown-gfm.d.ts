declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown'
  /** Tables, strikethrough, task lists and highlighted code blocks, as GitHub writes them. */
  export const gfm: TurndownService.Plugin
}
