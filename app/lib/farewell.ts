import type { UserStore } from './settings'

/**
 * Spec §6 (and §2's guard): landing sends to the dashboard only a visitor who holds an API key and has
 * showFarewell stored; either alone is not enough.
 */
export function farewellSendsToDashboard(store: UserStore): boolean {
  return Boolean(store.apiKey) && store.settings.showFarewell
}
