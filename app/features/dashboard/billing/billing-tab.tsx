import { NeedKeyPanel, CardSkeleton } from '../panels'
import { useDashboardKey } from '../dashboard-key'
import { BillingDetailsCard } from './billing-details-card'
import { CheckoutReturn } from './checkout-return'
import { PacksCard } from './packs-card'
import { PurchasesCard } from './purchases-card'

/** Buying tokens: the packs on offer (visible without a key), what this key bought, and a checkout's outcome. */
export function BillingTab() {
  const { apiKey, ready } = useDashboardKey()
  return (
    <div className="flex flex-col gap-6">
      {apiKey && <CheckoutReturn apiKey={apiKey} />}
      <PacksCard apiKey={apiKey} />
      {apiKey ? (
        <>
          <PurchasesCard apiKey={apiKey} />
          <BillingDetailsCard apiKey={apiKey} />
        </>
      ) : ready ? (
        <NeedKeyPanel />
      ) : (
        <CardSkeleton className="h-40 w-full rounded-xl" />
      )}
    </div>
  )
}
