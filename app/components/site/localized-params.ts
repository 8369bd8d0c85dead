type Params = Record<string, string | undefined>

/**
 * The params of a localized link: the caller's, with `locale` set. Path params the caller leaves out
 * are set to undefined, because the router would otherwise take them from the page the link is on
 * (a link to the dashboard's default tab, on another tab, would keep that tab).
 */
export function localizedParams(
  to = '',
  params: unknown,
  locale: string | undefined,
): Params | ((prev?: Params) => Params) {
  if (typeof params === 'function') return (prev) => ({ ...(params as (prev?: Params) => Params)(prev), locale })
  const next: Params = {}
  for (const [, name] of to.matchAll(/\$(\w+)/g)) next[name] = undefined
  return Object.assign(next, params as Params, { locale })
}
