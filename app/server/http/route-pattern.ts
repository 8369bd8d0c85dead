/** Path segments under which the next segment is an id (a key, a job, a classifier, a model, a screenshot, a file, a batch). */
const idParents = new Set(['keys', 'bulk-embeddings', 'classifiers', 'models', 'shots', 'slug', 'files', 'batches'])

/** Fixed segments that sit where an id could (`/keys/claim`, `/models/slug/<slug>`). */
const literals = new Set(['claim', 'slug'])

const exact = new Set(['/healthz', '/healthz/live', '/metrics', '/robots.txt', '/sitemap.xml'])

/**
 * A request's route as a metric label: a bounded set however many paths are asked for. API paths keep their
 * shape with ids as `:id`; the reader's `/r/<url>` and search's `/s/<query>` are one route each; anything answered 404 is `unmatched` (a
 * scanner's thousand paths are one series), and every page is `page` (the locale and slug would be many).
 */
export function routePattern(pathname: string, status: number): string {
  if (status === 404) return 'unmatched'
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname
  if (exact.has(path)) return path
  if (path === '/r' || path.startsWith('/r/')) return '/r/*'
  if (path === '/s' || path.startsWith('/s/')) return '/s/*'
  if (path.startsWith('/_serverFn/')) return '/_serverFn'
  if (path.startsWith('/assets/')) return '/assets/*'
  if (!/^\/(api|v1|internal)\//.test(path)) return 'page'
  const segments = path.split('/')
  return segments
    .map((segment, i) => (i > 1 && idParents.has(segments[i - 1]) && !literals.has(segment) ? ':id' : segment))
    .join('/')
}
