/**
 * The boxes a demo and its skeleton share, so the page does not move when the demo's code arrives: the
 * skeleton (server-rendered, in the product page's chunk) and the demo (its own chunk) both use these.
 * The panels' minimum heights (`panelHeights`) fit each demo's first screen, key or none, in the
 * longest interface language.
 */
export type DemoName = 'embeddings' | 'rerank' | 'segment' | 'classify' | 'reader' | 'deepsearch' | 'serp'

/**
 * Measured in Chromium at 320–1280 px in every interface language, with a key and without (the tallest
 * case plus about a line): the form panel, and the answer panel, which is beside it from lg up. A form
 * panel is never below 22rem, the skeleton's own blocks.
 */
export const panelHeights: Record<DemoName, { form: string; result: string }> = {
  embeddings: {
    form: 'min-h-[42rem] sm:min-h-[29rem] lg:min-h-[32rem]',
    result: 'min-h-[31rem] sm:min-h-[23rem] lg:min-h-[32rem]',
  },
  rerank: {
    form: 'min-h-[42rem] sm:min-h-[33rem] lg:min-h-[37rem]',
    result: 'min-h-[31rem] sm:min-h-[23rem] lg:min-h-[37rem]',
  },
  segment: {
    form: 'min-h-[47rem] sm:min-h-[33rem] lg:min-h-[37rem]',
    result: 'min-h-[31rem] sm:min-h-[23rem] lg:min-h-[37rem]',
  },
  classify: {
    form: 'min-h-[42rem] sm:min-h-[24rem] lg:min-h-[28rem]',
    result: 'min-h-[31rem] sm:min-h-[23rem] lg:min-h-[28rem]',
  },
  reader: {
    form: 'min-h-[52rem] sm:min-h-[34rem] lg:min-h-[42rem]',
    result: 'min-h-[35rem] sm:min-h-[26rem] lg:min-h-[42rem]',
  },
  deepsearch: {
    form: 'min-h-[38rem] sm:min-h-[30rem] lg:min-h-[32rem]',
    result: 'min-h-[32rem] sm:min-h-[24rem] lg:min-h-[32rem]',
  },
  serp: {
    form: 'min-h-[28rem] sm:min-h-[22rem] lg:min-h-[24rem]',
    result: 'min-h-[32rem] sm:min-h-[24rem] lg:min-h-[24rem]',
  },
}

export const demoLayout = {
  grid: 'grid gap-6 lg:grid-cols-2',
  panel: 'flex min-w-0 flex-col gap-5 rounded-xl border bg-card p-5 shadow-xs',
  curlBox: 'min-w-0 overflow-hidden rounded-xl border bg-card shadow-xs',
  curlHeader: 'flex flex-col gap-1 border-b px-4 py-2 sm:flex-row sm:items-center sm:justify-between',
  /** The longest example's command fits; longer ones scroll. */
  curlPre: 'h-[25rem] overflow-auto p-4 text-[13px] leading-relaxed',
  curlNote: 'min-h-14 border-t px-4 py-2.5 text-xs text-muted-foreground sm:min-h-0',
} as const
