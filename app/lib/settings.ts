import * as v from 'valibot'
import { persistedStore } from './persisted-store'

/** Spec §3 user settings with their defaults. */
const userSettingsSchema = v.object({
  enableSceneXplainTooltip: v.optional(v.boolean(), true),
  enableGlobalQA: v.optional(v.boolean(), true),
  enableRecommender: v.optional(v.boolean(), true),
  enableAutoAPIRequest: v.optional(v.boolean(), false),
  lastQuestion: v.optional(v.string(), ''),
  showTopNotification: v.optional(v.boolean(), true),
  showFarewell: v.optional(v.boolean(), false),
  showSearchBar: v.optional(v.boolean(), true),
  showBookNotification: v.optional(v.boolean(), true),
  showElasticNotification: v.optional(v.boolean(), true),
  darkMode: v.optional(v.union([v.literal('auto'), v.boolean()]), 'auto'),
  localeOptions: v.optional(v.array(v.string()), []),
})

/** Spec §3 user store: persisted in local storage under the key `user`. */
const userStoreSchema = v.object({
  apiKey: v.optional(v.nullable(v.string()), null),
  language: v.optional(v.nullable(v.string()), null),
  settings: v.optional(userSettingsSchema, {}),
})

export type UserSettings = v.InferOutput<typeof userSettingsSchema>
export type UserStore = v.InferOutput<typeof userStoreSchema>
export type DarkMode = UserSettings['darkMode']

export const STORE_KEY = 'user'
export const defaultUserStore: UserStore = v.parse(userStoreSchema, {})

const persisted = persistedStore(STORE_KEY, userStoreSchema, defaultUserStore)

export const getUserStore = persisted.get

export function updateUserStore(change: (store: UserStore) => UserStore): UserStore {
  const next = change(getUserStore())
  persisted.set(next)
  return next
}

export function updateSettings(patch: Partial<UserSettings>): UserStore {
  return updateUserStore((store) => ({ ...store, settings: { ...store.settings, ...patch } }))
}

/** The store; the server snapshot is the defaults, so hydration never mismatches. */
export const useUserStore = persisted.use

/** Persists a plain value under its own local-storage key (spec §4: the `s` parameter). */
export function storeValue(key: string, value: string) {
  localStorage.setItem(key, value)
}
