import type { HostPreferences } from './engine'

const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** Whether a host is the name or a subdomain of one of `names`. */
function matches(host: string, names: string[]): boolean {
  return names.some((name) => host === name || host.endsWith(`.${name}`))
}

/** Whether the caller lets the agent use a URL: not on a bad host, and on an `only` host when there are any. */
export function hostAllowed(url: string, hosts: HostPreferences): boolean {
  const host = hostOf(url)
  if (matches(host, hosts.bad)) return false
  return hosts.only.length === 0 || matches(host, hosts.only)
}

/** How much a source's score is raised for being on a host the caller favours. */
export const BOOST = 1.5

export function hostBoost(url: string, hosts: HostPreferences): number {
  return matches(hostOf(url), hosts.boost) ? BOOST : 1
}

/** The http(s) URLs written in a text, without trailing punctuation, each once. */
export function urlsIn(text: string): string[] {
  const found = text.match(/\bhttps?:\/\/[^\s<>"'`]+/gi) ?? []
  return [...new Set(found.map((url) => url.replace(/[.,;:!?)\]]+$/, '')))]
}
