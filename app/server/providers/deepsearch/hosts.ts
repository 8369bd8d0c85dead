import { hostOf, onHosts } from '../search/sites'
import type { HostPreferences } from './engine'

/** Whether the caller lets the agent use a URL: not on a bad host, and on an `only` host when there are any. */
export function hostAllowed(url: string, hosts: HostPreferences): boolean {
  const host = hostOf(url)
  if (onHosts(host, hosts.bad)) return false
  return hosts.only.length === 0 || onHosts(host, hosts.only)
}

/** How much a source's score is raised for being on a host the caller favours. */
export const BOOST = 1.5

export function hostBoost(url: string, hosts: HostPreferences): number {
  return onHosts(hostOf(url), hosts.boost) ? BOOST : 1
}

/** The http(s) URLs written in a text, without trailing punctuation, each once. */
export function urlsIn(text: string): string[] {
  const found = text.match(/\bhttps?:\/\/[^\s<>"'`]+/gi) ?? []
  return [...new Set(found.map((url) => url.replace(/[.,;:!?)\]]+$/, '')))]
}
