import { UnavailablePanel } from '../panels'
import { PacksCard } from './packs-card'

/** What is on offer now; buying comes with checkout. */
export function BillingTab() {
  return (
    <div className="flex flex-col gap-6">
      <PacksCard />
      <UnavailablePanel />
    </div>
  )
}
