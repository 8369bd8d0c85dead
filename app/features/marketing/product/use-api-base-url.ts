import { getRouteApi } from '@tanstack/react-router'

const root = getRouteApi('__root__')

/**
 * Where the search APIs are called (the server's PUBLIC_API_BASE_URL, from the root loader), without a
 * trailing slash. Beside the product page rather than in app/lib, since only product pages need it and
 * what app/lib holds joins the shell every page loads (vite.config.ts); through the root's RouteApi, whose
 * code every page already has (a direct `useLoaderData` import split that hook into a chunk of its own).
 */
export function useApiBaseUrl(): string {
  return root.useLoaderData({ select: (data) => data.apiBaseUrl })
}
