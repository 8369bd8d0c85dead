import type { RequestLogFilters } from '~/contracts/request-log'
import { ApiError } from '~/lib/api-error'

type Format = 'csv' | 'json'

/**
 * Downloads an export route's file (`/api/v1/<log>/export`), which streams it; the file is saved once it has
 * arrived, under the name the server gives. The key goes as a bearer header, never in the URL.
 */
function downloadExport(apiKey: string, log: 'requests' | 'audit', query: URLSearchParams) {
  return downloadFile(apiKey, `/api/v1/${log}/export?${query}`, `${log}.${query.get('format')}`)
}

/** Any keyed file route of the API (an export, an invoice), saved under the name the server gives. */
export async function downloadFile(apiKey: string, path: string, fallback: string) {
  const response = await fetch(path, { headers: { authorization: `Bearer ${apiKey}` } })
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown }
    throw new ApiError(response.status, typeof body.detail === 'string' ? body.detail : response.statusText)
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallback
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

/** The request log under `filters`. */
export function downloadRequestLog(apiKey: string, filters: RequestLogFilters, format: Format) {
  return downloadExport(apiKey, 'requests', new URLSearchParams({ ...definedOf(filters), format }))
}

/** The whole audit log. */
export function downloadAudit(apiKey: string, format: Format) {
  return downloadExport(apiKey, 'audit', new URLSearchParams({ format }))
}

const definedOf = (filters: RequestLogFilters) =>
  Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined))
