import { mutationOptions, queryOptions, type QueryClient } from '@tanstack/react-query'
import {
  classifyText,
  deleteClassifier,
  fetchClassifiers,
  renameClassifier,
  trainClassifier,
} from '../classifiers.functions'
import { dashboardKeys, refreshKey, toastError } from '../queries'

export const classifiersKey = (apiKey: string) => [...dashboardKeys.ofKey(apiKey), 'classifiers'] as const

export const classifiersQuery = (apiKey: string) =>
  queryOptions({
    queryKey: classifiersKey(apiKey),
    queryFn: ({ signal }) => fetchClassifiers({ data: { apiKey }, signal }),
    staleTime: 0,
    retry: false,
  })

type TrainRequest = Parameters<typeof trainClassifier>[0]['data']['request']
type ClassifyRequest = Parameters<typeof classifyText>[0]['data']['request']

/** Training and classifying spend tokens and change the counts the list shows. */
export const trainMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; request: TrainRequest }) => trainClassifier({ data: input }),
    // Under the key's queries, so its balance and its classifiers (used and trained counts) are read again.
    onSuccess: (_, { apiKey }) => refreshKey(queryClient, apiKey),
  })

export const classifyMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; request: ClassifyRequest }) => classifyText({ data: input }),
    // Under the key's queries, so its balance and its classifiers (used and trained counts) are read again.
    onSuccess: (_, { apiKey }) => refreshKey(queryClient, apiKey),
  })

export const deleteClassifierMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; id: string }) => deleteClassifier({ data: input }),
    onSuccess: (_, { apiKey }) => queryClient.invalidateQueries({ queryKey: classifiersKey(apiKey) }),
    onError: toastError,
  })

/** A classifier's name is kept on the server, so every browser of the key shows it. */
export const renameClassifierMutation = (queryClient: QueryClient) =>
  mutationOptions({
    mutationFn: (input: { apiKey: string; id: string; name: string | null }) => renameClassifier({ data: input }),
    onSuccess: (_, { apiKey }) => queryClient.invalidateQueries({ queryKey: classifiersKey(apiKey) }),
    onError: toastError,
  })
