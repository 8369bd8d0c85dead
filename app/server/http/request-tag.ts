import { checkedTag } from '../api/request-log/tag'

/**
 * The request's `X-Request-Tag`, which its request log row keeps so usage can be filtered and grouped by it
 * (a team, a feature, a customer of the caller's). Absent: undefined; malformed: refused before any work.
 */
export function requestTagOf(request: Request): string | undefined {
  const tag = request.headers.get('x-request-tag')
  return tag === null ? undefined : checkedTag(tag, ['header', 'x-request-tag'])
}
