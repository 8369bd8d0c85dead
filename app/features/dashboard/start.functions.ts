import { createServerFn } from '@tanstack/react-start'
import { setResponseHeader } from '@tanstack/react-start/server'
import * as v from 'valibot'
import { paginatedTransactionQuery, totalConsumptionQuery } from '~/contracts/billing'
import { usageSummaryQuery } from '~/contracts/usage-summary'
import { authConfigFor } from '~/server/api/account/password'
import { viewerFor } from '~/server/api/account/profile'
import { balanceNotificationFor, consumptionFor, transactionPageFor } from '~/server/api/billing'
import { models, packs } from '~/server/api/catalogue'
import { keyInfoFor } from '~/server/api/keys'
import { rechargeStatusFor } from '~/server/api/payments/recharge-settings'
import { listServedModels } from '~/server/api/search/served-models'
import { usageSummaryFor } from '~/server/api/usage-summary'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'
import { type DashboardStart, startTabs, transactionsPageSize } from './start-data'
import { lastDays, usagePeriodDays } from './usage/consumption-data'

const startInput = v.strictObject({ tab: v.picklist(startTabs) })

/**
 * What the first screen of a tab shows, read on the server from the `apiKey` cookie the browser keeps (spec §4),
 * so the page arrives with the balance and the usage in its HTML instead of skeletons waiting for the app.
 * Called by the tab route's loader during the server render only; nothing for a visitor without the cookie,
 * and nothing but the key for a key the server refuses (the app then asks again and shows why).
 */
export const fetchDashboardStart = createServerFn({ method: 'GET' })
  .validator(validatorOf(startInput))
  .handler(async ({ data: { tab } }): Promise<DashboardStart | null> => {
    const caller = serverFnCaller()
    const apiKey = caller.presentedKey
    if (!apiKey) return null
    // The page now carries this visitor's figures: no shared cache may keep it.
    setResponseHeader('cache-control', 'private, no-store')
    setResponseHeader('vary', 'cookie')
    const read = <T>(run: () => Promise<T>) => run().catch(() => undefined)
    const range = lastDays(usagePeriodDays)
    const usage = tab === 'usage'
    const only = <T>(wanted: boolean, run: () => Promise<T>) => (wanted ? read(run) : undefined)
    const signInOn = authConfigFor().enabled
    const { viewer, ...fields } = await settled({
      keyInfo: read(() => keyInfoFor(caller)),
      transactions: read(() =>
        transactionPageFor(
          caller,
          v.parse(paginatedTransactionQuery, { num_records: String(transactionsPageSize), group_requests: 'true' }),
        ),
      ),
      usageSummary: only(usage, () => usageSummaryFor(caller, v.parse(usageSummaryQuery, range))),
      consumption: only(usage, () => consumptionFor(caller, v.parse(totalConsumptionQuery, range))),
      notification: only(tab === 'notifications', () => balanceNotificationFor(caller)),
      rechargeStatus: only(tab === 'auto-recharge', () => rechargeStatusFor(caller)),
      // The form's packs too: enabled at hydration, it must not meet an empty list ("Choose a pack").
      products: only(tab === 'auto-recharge', async () => packs()),
      models: only(tab === 'models', () => models({})),
      servedModels: only(tab === 'models', () => listServedModels()),
      // undefined when it could not be read: the bar waits for the browser's check, as without this.
      viewer: signInOn ? viewerFor(caller).catch(() => undefined) : undefined,
    })
    const account = !signInOn ? 'unavailable' : viewer === null ? 'signed-out' : undefined
    // A key the server refuses: the key alone, so the browser asks again and shows why.
    if (!fields.keyInfo) return { apiKey, range }
    return { apiKey, range, ...fields, account }
  })

/** Every field's promise awaited together, each answer under its field's name. */
async function settled<T extends Record<string, unknown>>(pending: T): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const entries = await Promise.all(Object.entries(pending).map(async ([name, value]) => [name, await value]))
  return Object.fromEntries(entries) as { [K in keyof T]: Awaited<T[K]> }
}
