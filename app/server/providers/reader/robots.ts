import { PageNotRead } from '../../domain/refusals'
import type { FetchLimits } from './fetcher'
import { pageFetcher } from './fetcher'

/** How long an origin's robots.txt is kept, and how many origins at most. */
const ROBOTS_TTL_MS = 3600_000
const MAX_ORIGINS = 1000
/** A robots.txt longer than this is read only this far (Google reads 500 KiB). */
const MAX_ROBOTS_BYTES = 512 * 1024

interface Group {
  agents: string[]
  rules: Array<{ allow: boolean; path: string }>
}

const cache = new Map<string, { groups: Group[]; expires: number }>()

/** robots.txt's groups: the user agents each names and their Allow/Disallow rules. */
export function parseRobots(text: string): Group[] {
  const groups: Group[] = []
  let current: Group | undefined
  let lastWasAgent = false
  for (const raw of text.split(/\r?\n|\r/)) {
    const line = raw.replace(/#.*$/, '').trim()
    const match = line.match(/^([\w-]+)\s*:\s*(.*)$/)
    if (!match) continue
    const field = match[1].toLowerCase()
    const value = match[2].trim()
    if (field === 'user-agent') {
      if (!current || !lastWasAgent) groups.push((current = { agents: [], rules: [] }))
      current.agents.push(value.toLowerCase())
      lastWasAgent = true
    } else {
      lastWasAgent = false
      if (current && (field === 'allow' || field === 'disallow') && (value || field === 'allow'))
        current.rules.push({ allow: field === 'allow', path: value })
    }
  }
  return groups
}

/** A rule's path as a pattern: `*` matches anything, a final `$` anchors the end. */
function matches(rule: string, path: string): boolean {
  const anchored = rule.endsWith('$')
  const body = (anchored ? rule.slice(0, -1) : rule)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
  return new RegExp(`^${body.join('.*')}${anchored ? '$' : ''}`).test(path)
}

/**
 * Whether `agent` may read `url` by these groups, as RFC 9309 says: the group naming the agent (else `*`),
 * and within it the longest matching rule, Allow winning a tie; no rule matching allows.
 */
export function robotsAllow(groups: Group[], agent: string, url: URL): boolean {
  const token = agent.toLowerCase().split(/[\s/]/)[0]
  const named = groups.filter((group) => group.agents.some((name) => name !== '*' && token.includes(name)))
  const applying = named.length ? named : groups.filter((group) => group.agents.includes('*'))
  const path = `${url.pathname}${url.search}`
  let best: { allow: boolean; length: number } | undefined
  for (const { allow, path: rule } of applying.flatMap((group) => group.rules)) {
    if (!matches(rule, path)) continue
    if (!best || rule.length > best.length || (rule.length === best.length && allow))
      best = { allow, length: rule.length }
  }
  return best?.allow ?? true
}

async function groupsOf(origin: string, limits: FetchLimits): Promise<Group[]> {
  const known = cache.get(origin)
  if (known && known.expires > Date.now()) return known.groups
  let groups: Group[] = []
  try {
    const fetched = await (
      await pageFetcher()
    )(new URL('/robots.txt', origin), {
      ...limits,
      maxBytes: MAX_ROBOTS_BYTES,
      timeoutMs: Math.min(limits.timeoutMs, 10_000),
    })
    const chunks: Uint8Array[] = []
    for await (const chunk of fetched.body) chunks.push(chunk)
    groups = parseRobots(new TextDecoder().decode(Buffer.concat(chunks)))
  } catch (error) {
    // The address rules hold for robots.txt too; a missing or unreadable one allows everything, as crawlers read it.
    if (error instanceof PageNotRead && error.problem === 'address') throw error
  }
  if (cache.size >= MAX_ORIGINS) cache.delete(cache.keys().next().value!)
  cache.set(origin, { groups, expires: Date.now() + ROBOTS_TTL_MS })
  return groups
}

/** Refuses with 403 a page the origin's robots.txt (fetched with the reader's rules, kept an hour) forbids to `agent`. */
export async function obeyRobots(url: URL, agent: string, limits: FetchLimits): Promise<void> {
  if (!robotsAllow(await groupsOf(url.origin, limits), agent, url))
    throw new PageNotRead('robots', `${url.origin}/robots.txt does not allow ${agent} to read this page`)
}
