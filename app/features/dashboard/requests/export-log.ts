import type { RequestLogFilters } from '~/contracts/request-log'
import { ApiError } from '~/lib/api-error'

/**
 * Downloads the log under `filters` through the export route, which streams it; the file is saved once it
 * has arrived. The key goes as a bearer header, never in the URL.
 */
export async function downloadRequestLog(apiKey: string, filters: RequestLogFilters, format: 'csv' | 'json') {
  const query = new URLSearchParams({ ...definedOf(filters), format })
  const response = await fetch(`/api/v1/requests/export?${query}`, { headers: { authorization: `Bearer ${apiKey}` } })
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown }
    throw new ApiError(response.status, typeof body.detail === 'string' ? body.detail : response.statusText)
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `requests.${format}`
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

const definedOf = (filters: RequestLogFilters) =>
  Object.fromEntries(Object.entries(filters).filter((entry): entry is [string, string] => entry[1] !== undefined))
