import { queryOptions } from '@tanstack/react-query'
import { accountApi } from '~/lib/auth/account-api'

export const accountKeys = { keys: ['account', 'keys'] as const, tickets: ['account', 'tickets'] as const }

export const accountKeysQuery = (enabled: boolean) =>
  queryOptions({ queryKey: accountKeys.keys, queryFn: () => accountApi.keys(), enabled, staleTime: 0 })
