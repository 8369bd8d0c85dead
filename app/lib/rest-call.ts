import { fromResponse, toApiError } from '~/lib/api-error'

/**
 * A same-origin call to the REST API (`/api/v1/<path>`), as the browser makes it for the parts shared by
 * several features: the session cookie goes along, a sign-in call carries the ID token as a bearer header
 * (spec §6), and a refusal becomes an ApiError (`status: detail`).
 */
export async function restCall<T>(
  method: string,
  path: string,
  init: { json?: unknown; form?: Record<string, string>; idToken?: string; signal?: AbortSignal } = {},
): Promise<T> {
  const headers: Record<string, string> = {}
  if (init.json !== undefined) headers['content-type'] = 'application/json'
  // A form (the key service's calls take one, spec §7) goes as application/x-www-form-urlencoded.
  const body = init.form
    ? new URLSearchParams(init.form)
    : init.json === undefined
      ? undefined
      : JSON.stringify(init.json)
  if (init.idToken) headers.authorization = `Bearer ${init.idToken}`
  let response: Response
  try {
    response = await fetch(`/api/v1/${path}`, {
      method,
      headers,
      body,
      credentials: 'same-origin',
      signal: init.signal,
    })
  } catch (error) {
    throw await toApiError(error)
  }
  if (!response.ok) throw await fromResponse(response)
  return (await response.json()) as T
}
