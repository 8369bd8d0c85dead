import { getCookie, getRequest } from '@tanstack/react-start/server'
import type { Caller } from '../api/caller'

/**
 * The caller of a server function: the key the dashboard sent in the input, or else the `apiKey` cookie
 * the site keeps for the parent domain (spec §4). Cross-site calls never get this far: the request
 * middleware refuses a foreign Origin on every POST.
 */
export function serverFnCaller(apiKey?: string): Caller {
  return { request: getRequest(), presentedKey: apiKey ?? getCookie('apiKey') ?? undefined }
}
