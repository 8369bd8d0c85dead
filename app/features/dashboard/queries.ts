import { infiniteQueryOptions, mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query'
import type { ModelTag } from '#content/vocabulary'
import {
  fetchBalanceNotification,
  fetchConsumption,
  fetchTransactionPage,
  removeBalanceNotification,
  saveBalanceNotification,
  transferBalance,
} from './billing.functions'
import { fetchModels, fetchProducts, fetchServedModels } from './catalogue.functions'
import { fetchKeyInfo, revokeApiKey } from './key.functions'
import { notify } from '~/features/dashboard/notify'

/** Spec §8: a failed read is only logged; an aborted one (navigation, unmount) is not a failure. */
async function read<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    if (!(error instanceof DOMException && error.name === 'AbortError'))
      console.error(error instanceof Error ? error.message : error)
    throw error
  }
}

/** Spec §8: a failed write shows `status: detail` as a negative notification. */
export function toastError(error: unknown) {
  notify.error(error instanceof Error ? error.message : String(error))
}

export const dashboardKeys = {
  all: ['dashboard'] as const,
  ofKey: (apiKey: string) => ['dashboard', 'key', apiKey] as const,
  keyInfo: (apiKey: string) => [...dashboardKeys.ofKey(apiKey), 'key-info'] as const,
  transactions: (apiKey: string, pageSize: number) =>
    [...dashboardKeys.ofKey(apiKey), 'transactions', pageSize] as const,
  consumption: (apiKey: string, start: string, end: string) =>
    [...dashboardKeys.ofKey(apiKey), 'consumption', start, end] as const,
  usageSummary: (apiKey: string, range: { start: string; end: string }, keyId: string) =>
    [...dashboardKeys.ofKey(apiKey), 'usage-summary', range.start, range.end, keyId] as const,
  notification: (apiKey: string) => [...dashboardKeys.ofKey(apiKey), 'balance-notification'] as const,
  rechargeStatus: (apiKey: string) => [...dashboardKeys.ofKey(apiKey), 'auto-recharge'] as const,
  models: (tags: ModelTag[]) => ['dashboard', 'models', ...tags] as const,
  servedModels: ['dashboard', 'served-models'] as const,
  products: ['dashboard', 'products'] as const,
}

/** Key info of any key: the dashboard's own, a pasted candidate, or a transfer's receiver. */
export const keyInfoOf = (apiKey: string, signal?: AbortSignal) => fetchKeyInfo({ data: { apiKey }, signal })

export const keyInfoQuery = (apiKey: string | null) =>
  queryOptions({
    queryKey: dashboardKeys.keyInfo(apiKey ?? ''),
    queryFn: ({ signal }) => read(() => keyInfoOf(apiKey!, signal)),
    enabled: Boolean(apiKey),
    staleTime: 0,
    // A revoked or unknown key answers 401 every time; retrying only repeats the console error.
    retry: false,
  })

/**
 * One page of transactions, newest first; `cursor` continues after the previous page. `requests`: one row per
 * request (a deep search's reservations and what it gave back together), as the Usage list shows them; the
 * CSV export keeps every ledger entry.
 */
export const transactionPage = (
  apiKey: string,
  pageSize: number,
  cursor?: string,
  signal?: AbortSignal,
  { requests = false } = {},
) =>
  fetchTransactionPage({
    data: { apiKey, num_records: String(pageSize), cursor, group_requests: requests ? 'true' : 'false' },
    signal,
  })

export const transactionsQuery = (apiKey: string | null, pageSize = 20) =>
  infiniteQueryOptions({
    queryKey: dashboardKeys.transactions(apiKey ?? '', pageSize),
    queryFn: ({ pageParam, signal }) =>
      read(() => transactionPage(apiKey!, pageSize, pageParam, signal, { requests: true })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    enabled: Boolean(apiKey),
    // Usage recorded elsewhere changes these at any time: refetch whenever a screen shows them.
    staleTime: 0,
    retry: false,
  })

export const consumptionQuery = (apiKey: string | null, range: { start: string; end: string }) =>
  queryOptions({
    queryKey: dashboardKeys.consumption(apiKey ?? '', range.start, range.end),
    queryFn: ({ signal }) => read(() => fetchConsumption({ data: { apiKey: apiKey!, ...range }, signal })),
    enabled: Boolean(apiKey),
    // Usage recorded elsewhere changes these at any time: refetch whenever a screen shows them.
    staleTime: 0,
    retry: false,
  })

export const balanceNotificationQuery = (apiKey: string | null) =>
  queryOptions({
    queryKey: dashboardKeys.notification(apiKey ?? ''),
    queryFn: ({ signal }) => read(() => fetchBalanceNotification({ data: { apiKey: apiKey! }, signal })),
    enabled: Boolean(apiKey),
    retry: false,
  })

export const modelsQuery = (tags: ModelTag[]) =>
  queryOptions({
    queryKey: dashboardKeys.models(tags),
    queryFn: ({ signal }) => read(() => fetchModels({ data: { tag: tags }, signal })),
    staleTime: 5 * 60_000,
  })

export const servedModelsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.servedModels,
    queryFn: ({ signal }) => read(() => fetchServedModels({ signal })),
    staleTime: 5 * 60_000,
  })

export const productsQuery = () =>
  queryOptions({
    queryKey: dashboardKeys.products,
    queryFn: ({ signal }) => read(() => fetchProducts({ signal })),
    staleTime: 5 * 60_000,
  })

/** After a write the balance and the usage of that key are stale. */
export function refreshKey(queryClient: QueryClient, apiKey: string) {
  return queryClient.invalidateQueries({ queryKey: dashboardKeys.ofKey(apiKey) })
}

/** A key that stopped working must not be asked again: drop its cached data instead of refetching (a 401 would log). */
export function forgetKeyData(queryClient: QueryClient, apiKey: string) {
  queryClient.removeQueries({ queryKey: dashboardKeys.ofKey(apiKey) })
}

export const revokeKeyMutation = () =>
  mutationOptions({
    mutationFn: ({ apiKey, captcha }: { apiKey: string; captcha: string }) =>
      revokeApiKey({ data: { apiKey, captcha } }),
    onError: toastError,
  })

export const transferMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ apiKey, receiverKey, captcha }: { apiKey: string; receiverKey: string; captcha: string }) =>
      transferBalance({ data: { apiKey, receiver_key: receiverKey, revoke_sender_key: 'true', captcha } }),
    onSuccess: (_data, { receiverKey }) => refreshKey(queryClient, receiverKey),
    onError: toastError,
  })

export const saveNotificationMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ apiKey, thresholds, email }: { apiKey: string; thresholds: number[]; email: string }) =>
      saveBalanceNotification({ data: { apiKey, thresholds, email } }),
    onSuccess: (data, { apiKey }) => queryClient.setQueryData(dashboardKeys.notification(apiKey), data),
    onError: toastError,
  })

export const removeNotificationMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: ({ apiKey }: { apiKey: string }) => removeBalanceNotification({ data: { apiKey } }),
    onSuccess: (data, { apiKey }) => queryClient.setQueryData(dashboardKeys.notification(apiKey), data),
    onError: toastError,
  })
