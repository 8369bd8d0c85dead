import { queryOptions } from '@tanstack/react-query'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { ApiError } from '~/lib/api-error'

export const orgKeys = {
  all: ['organisations'] as const,
  list: ['organisations', 'list'] as const,
  of: (id: string) => ['organisations', id] as const,
  members: (id: string) => ['organisations', id, 'members'] as const,
  invitations: (id: string) => ['organisations', id, 'invitations'] as const,
  projects: (id: string) => ['organisations', id, 'projects'] as const,
  keys: (id: string) => ['organisations', id, 'keys'] as const,
  adminKeys: (id: string) => ['organisations', id, 'admin-keys'] as const,
  preview: (token: string) => ['organisations', 'invitation', token] as const,
}

const fresh = { staleTime: 0 }

export const organisationsQuery = (enabled: boolean) =>
  queryOptions({ queryKey: orgKeys.list, queryFn: () => organisationsApi.list(), enabled, ...fresh })
export const membersQuery = (id: string, enabled: boolean) =>
  queryOptions({ queryKey: orgKeys.members(id), queryFn: () => organisationsApi.members(id), enabled, ...fresh })
export const invitationsQuery = (id: string, enabled: boolean) =>
  queryOptions({
    queryKey: orgKeys.invitations(id),
    queryFn: () => organisationsApi.invitations(id),
    enabled,
    ...fresh,
  })
export const projectsQuery = (id: string, enabled: boolean) =>
  queryOptions({ queryKey: orgKeys.projects(id), queryFn: () => organisationsApi.projects(id), enabled, ...fresh })
export const orgKeysQuery = (id: string, enabled: boolean) =>
  queryOptions({ queryKey: orgKeys.keys(id), queryFn: () => organisationsApi.keys(id), enabled, ...fresh })
export const adminKeysQuery = (id: string, enabled: boolean) =>
  queryOptions({ queryKey: orgKeys.adminKeys(id), queryFn: () => organisationsApi.adminKeys(id), enabled, ...fresh })
export const invitationPreviewQuery = (token: string) =>
  queryOptions({
    queryKey: orgKeys.preview(token),
    queryFn: () => organisationsApi.previewInvitation(token),
    retry: false,
    ...fresh,
  })

/** The server's own words for a refusal (`{detail}`), without the status in front. */
export function refusalText(error: unknown): string {
  if (error instanceof ApiError) return error.detail
  return error instanceof Error ? error.message : String(error)
}
