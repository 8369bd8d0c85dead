import { useLoaderData } from '@tanstack/react-router'

/** Where the search APIs are called (the server's PUBLIC_API_BASE_URL, from the root loader), without a trailing slash. */
export function useApiBaseUrl(): string {
  return useLoaderData({ from: '__root__', select: (data) => data.apiBaseUrl })
}
