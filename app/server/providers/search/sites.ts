/** The host of a URL, lower-cased ('' for what is not a URL). */
export function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase()
  } catch {
    return ''
  }
}

/** Whether a host is one of `names` or a subdomain of one (`docs.example.com` is on `example.com`). */
export function onHosts(host: string, names: string[]): boolean {
  return names.some((name) => host === name || host.endsWith(`.${name}`))
}

/** Whether a URL is on one of `sites` (every URL is, when there are none). */
export function onSites(url: string, sites: string[]): boolean {
  return sites.length === 0 || onHosts(hostOf(url), sites)
}

/** `https://Example.com/a` or `example.com.` → `example.com`: how a caller may write a site. */
export function siteName(site: string): string {
  const text = site.trim().toLowerCase()
  const host = /^[a-z][a-z0-9+.-]*:\/\//.test(text) ? hostOf(text) : text.split('/')[0]
  return host.replace(/\.$/, '')
}

/** Each URL once (its first, best-ranked appearance); `#fragment`s name the same page. */
export function uniqueByUrl<T extends { url: string }>(items: T[]): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const page = item.url.replace(/#.*$/, '')
    if (seen.has(page)) return false
    seen.add(page)
    return true
  })
}
