/** The domain to share the cookie with: the parent of the current host, none on localhost or an IP. */
export function parentDomain(hostname: string): string | undefined {
  if (hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':')) return undefined
  const labels = hostname.split('.')
  if (labels.length < 2) return undefined
  return `.${labels.slice(-2).join('.')}`
}

/** Spec §4/§9: the key is mirrored into an `apiKey` cookie for the parent domain, path /, secure. */
export function apiKeyCookie(apiKey: string | null, hostname: string): string {
  const domain = parentDomain(hostname)
  const parts = [`apiKey=${apiKey ? encodeURIComponent(apiKey) : ''}`, 'path=/', 'secure', 'samesite=lax']
  if (domain) parts.push(`domain=${domain}`)
  parts.push(apiKey ? `max-age=${60 * 60 * 24 * 365}` : 'max-age=0')
  return parts.join('; ')
}
