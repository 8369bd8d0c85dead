import { useQuery } from '@tanstack/react-query'
import { CheckoutReturn } from '../billing/checkout-return'
import { rechargeStatusQuery } from '../billing/queries'
import { productsQuery } from '../queries'
import { CardSkeleton, WithApiKey } from '../panels'
import { RechargeForm } from './recharge-form'
import { RechargeStatusCard } from './recharge-status'

const skeleton = <CardSkeleton className="h-80 w-full rounded-xl" />

export function AutoRechargeTab() {
  return <WithApiKey skeleton={skeleton}>{(apiKey) => <AutoRechargeScreen apiKey={apiKey} />}</WithApiKey>
}

function AutoRechargeScreen({ apiKey }: { apiKey: string }) {
  const status = useQuery(rechargeStatusQuery(apiKey))
  // The form waits for the packs too: drawn without them, its buttons would answer "Choose a pack".
  const packs = useQuery(productsQuery())
  if (status.isPending || packs.isPending) return skeleton
  if (status.isError || packs.isError)
    return (
      <p role="alert" className="text-sm text-muted-foreground">
        {(status.error ?? packs.error)?.message}
      </p>
    )
  return (
    <div className="flex flex-col gap-6">
      <CheckoutReturn apiKey={apiKey} />
      <RechargeStatusCard apiKey={apiKey} status={status.data} />
      <RechargeForm
        key={`${status.data.enabled}-${status.data.threshold}`}
        apiKey={apiKey}
        status={status.data}
        packs={packs.data}
      />
    </div>
  )
}
