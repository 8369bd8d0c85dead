import type { List } from '~/contracts/admin-api'

/**
 * One page of a list the domain reads whole (members, invitations, projects, keys: tens of rows), in its order,
 * starting after the item `after` names; an `after` that names none starts at the top, as a stale cursor would.
 */
export function listPage<T extends { id: string }>(items: T[], query: { after?: string; limit?: number }): List<T> {
  const limit = query.limit ?? 20
  const at = query.after === undefined ? -1 : items.findIndex((item) => item.id === query.after)
  const data = items.slice(at + 1, at + 1 + limit)
  return {
    object: 'list',
    data,
    first_id: data[0]?.id ?? null,
    last_id: data.at(-1)?.id ?? null,
    has_more: at + 1 + limit < items.length,
  }
}

export const unixSeconds = (iso: string | Date) => Math.floor(new Date(iso).getTime() / 1000)
