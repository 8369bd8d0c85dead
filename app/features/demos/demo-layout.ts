/**
 * The boxes a demo and its skeleton share, so the page does not move when the demo's code arrives: the
 * skeleton (server-rendered, in the product page's chunk) and the demo (its own chunk) both use these.
 * The minimum heights fit each demo's first screen, key or none, in the longest interface language.
 */
export const demoLayout = {
  grid: 'grid gap-6 lg:grid-cols-2',
  panel: 'flex min-w-0 flex-col gap-5 rounded-xl border bg-card p-5 shadow-xs',
  form: 'min-h-[36rem] sm:min-h-[30rem] lg:min-h-[34rem]',
  result: 'min-h-72 lg:min-h-[34rem]',
  curlBox: 'min-w-0 overflow-hidden rounded-xl border bg-card shadow-xs',
  curlHeader: 'flex flex-col gap-1 border-b px-4 py-2 sm:flex-row sm:items-center sm:justify-between',
  /** The longest example's command fits; longer ones scroll. */
  curlPre: 'h-[25rem] overflow-auto p-4 text-[13px] leading-relaxed',
  curlNote: 'min-h-13 border-t px-4 py-2.5 text-xs text-muted-foreground sm:min-h-0',
} as const
