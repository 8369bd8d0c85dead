/**
 * The shared balance of an organisation (session): its purchases, invoices, billing details and auto-recharge
 * (`billing.*` in the roles table), and its usage (`usage.read`). The balance is an `api_keys` row, so each
 * call is the key-held call's own core run on that row.
 */
import type * as v from 'valibot'
import type { BillingDetails, billingDetailsBody } from '~/contracts/billing-details'
import type { PurchaseItem, RechargeStatus, autoRechargeBody, checkoutBody } from '~/contracts/payments'
import type { UsageSummary, usageSummaryQuery } from '~/contracts/usage-summary'
import { apiKeys } from '../../db/schema'
import { eq } from 'drizzle-orm'
import { disableAutoRecharge } from '../../domain/auto-recharge'
import { displayKey, type ApiKey } from '../../domain/keys'
import type { OrganisationAction } from '../../domain/organisation-roles'
import { keysOfOrganisation } from '../../domain/organisation-keys'
import { requireRole } from '../../domain/organisations'
import { InvalidInput, OrganisationRefused } from '../../domain/refusals'
import { usageSummary } from '../../domain/usage-summary'
import { serverEnv } from '../../env'
import { auditBy } from '../audit/actor'
import type { Caller } from '../caller'
import { accountOf } from '../account/session'
import { autoRechargeOf, startCheckout } from '../payments/checkout'
import { billingDetailsOfBalance, invoicePdfOfBalance, saveBillingDetailsOfBalance } from '../payments/invoices'
import { purchasesOfBalance } from '../payments/purchases'
import { rechargeStatusOf } from '../payments/recharge-settings'
import { returnUrls } from '../payments/return-urls'
import { flushRequestLog } from '../request-log/writer'

/** The organisation's balance row, for a member whose role may do `action`; a personal organisation has none. */
async function sharedBalanceOf(caller: Caller, organisationId: string, action: OrganisationAction) {
  const { db, user } = await accountOf(caller)
  const { organisation } = await requireRole(db, user.uid, organisationId, action)
  if (!organisation.balanceKeyId)
    throw new OrganisationRefused(
      'A personal organisation has no shared balance: its keys keep their own (buy for a key in the Billing tab)',
    )
  const [key] = await db.select().from(apiKeys).where(eq(apiKeys.id, organisation.balanceKeyId))
  return { db, user, key: key as ApiKey }
}

/** Back to the Members tab of this organisation unless the caller names pages of this site. */
function organisationReturnUrls(organisationId: string, asked: { success_url?: string; cancel_url?: string }) {
  const env = serverEnv()
  const page = `${env.PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/members?organisation=${organisationId}`
  return returnUrls(env, {
    success_url: asked.success_url ?? `${page}&checkout=success`,
    cancel_url: asked.cancel_url ?? `${page}&checkout=cancelled`,
  })
}

export async function organisationCheckoutFor(
  caller: Caller,
  organisationId: string,
  body: v.InferOutput<typeof checkoutBody>,
): Promise<{ id: string; url: string }> {
  const { db, user, key } = await sharedBalanceOf(caller, organisationId, 'billing.manage')
  return startCheckout(db, key, {
    priceId: body.price_id,
    email: body.email ?? user.email,
    ...organisationReturnUrls(organisationId, body),
  })
}

export async function organisationPurchasesFor(
  caller: Caller,
  organisationId: string,
): Promise<{ purchases: PurchaseItem[] }> {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.read')
  return purchasesOfBalance(db, key.id)
}

export async function organisationInvoiceFor(caller: Caller, organisationId: string, purchaseId: string) {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.read')
  return invoicePdfOfBalance(db, key.id, purchaseId)
}

export async function organisationBillingDetailsFor(
  caller: Caller,
  organisationId: string,
): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.read')
  return billingDetailsOfBalance(db, key.id)
}

export async function saveOrganisationBillingDetailsFor(
  caller: Caller,
  organisationId: string,
  body: v.InferOutput<typeof billingDetailsBody>,
): Promise<{ details: BillingDetails | null }> {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.manage')
  return saveBillingDetailsOfBalance(db, auditBy(caller), key.id, body)
}

export async function organisationRechargeStatusFor(caller: Caller, organisationId: string): Promise<RechargeStatus> {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.read')
  return rechargeStatusOf(db, key.id)
}

export async function organisationAutoRechargeFor(
  caller: Caller,
  organisationId: string,
  body: v.InferOutput<typeof autoRechargeBody>,
): Promise<{ url: string }> {
  const { db, user, key } = await sharedBalanceOf(caller, organisationId, 'billing.manage')
  return autoRechargeOf(
    db,
    auditBy(caller),
    key,
    { ...body, email: body.email ?? user.email },
    organisationReturnUrls(organisationId, body),
  )
}

export async function disableOrganisationAutoRechargeFor(
  caller: Caller,
  organisationId: string,
): Promise<RechargeStatus> {
  const { db, key } = await sharedBalanceOf(caller, organisationId, 'billing.manage')
  await disableAutoRecharge(db, auditBy(caller), key.id)
  return rechargeStatusOf(db, key.id)
}

const NO_KEY = '00000000-0000-0000-0000-000000000000'
const DAY = 86_400_000
const MAX_DAYS = 366

/**
 * Requests, tokens and cost of every key of the organisation (revoked ones too), together or the one `key_id`
 * names, priced at what its balance (or, in a personal organisation, its keys) paid. Every role may read it.
 */
export async function organisationUsageFor(
  caller: Caller,
  organisationId: string,
  { start, end, key_id }: v.InferOutput<typeof usageSummaryQuery>,
): Promise<UsageSummary> {
  const { db, user } = await accountOf(caller)
  const { organisation } = await requireRole(db, user.uid, organisationId, 'usage.read')
  const today = Math.floor(Date.now() / DAY) * DAY
  const last = end ? Date.parse(`${end}T00:00:00Z`) : today
  const first = start ? Date.parse(`${start}T00:00:00Z`) : last - 29 * DAY
  if (first > last) throw new InvalidInput([{ loc: ['query', 'start'], msg: 'must not be after end', type: 'range' }])
  if ((last - first) / DAY >= MAX_DAYS)
    throw new InvalidInput([{ loc: ['query', 'end'], msg: `range must be at most ${MAX_DAYS} days`, type: 'range' }])
  // Usage names the keys (all of them, revoked too), though a viewer may not list or manage them.
  const keys = await keysOfOrganisation(db, organisation)
  const labels = keys.map((k) => ({ key_id: k.id, label: k.name ?? displayKey(k) }))
  if (key_id !== undefined && !labels.some((k) => k.key_id === key_id))
    throw new InvalidInput([{ loc: ['query', 'key_id'], msg: 'is not a key you can see', type: 'unknown_key' }])
  const ids = key_id !== undefined ? [key_id] : labels.map((k) => k.key_id)
  // Without keys yet: the balance row (or no row at all) stands in, so the summary is empty rather than malformed.
  const balanceRow = organisation.balanceKeyId ?? ids[0] ?? NO_KEY
  await flushRequestLog()
  const summary = await usageSummary(
    db,
    ids.length > 0 ? ids : [balanceRow],
    balanceRow,
    new Date(first),
    new Date(last + DAY),
  )
  const names = new Map(labels.map((k) => [k.key_id, k.label]))
  return {
    start: new Date(first).toISOString().slice(0, 10),
    end: new Date(last).toISOString().slice(0, 10),
    ...summary,
    by_key: summary.by_key.map((row) => ({ ...row, label: names.get(row.key_id) ?? row.key_id })),
    keys: labels,
  }
}
