import { useQuery } from '@tanstack/react-query'
import { CardSkeleton, WithApiKey } from '../panels'
import { balanceNotificationQuery } from '../queries'
import { NotificationForm } from './notification-form'

const skeleton = <CardSkeleton className="h-96 w-full rounded-xl" />

export function NotificationsTab() {
  return <WithApiKey skeleton={skeleton}>{(apiKey) => <NotificationsScreen apiKey={apiKey} />}</WithApiKey>
}

function NotificationsScreen({ apiKey }: { apiKey: string }) {
  const saved = useQuery(balanceNotificationQuery(apiKey))
  if (saved.isPending) return skeleton
  // A failed read was logged; the form still works from empty.
  const initial = saved.data ?? { thresholds: [], email: null, armed: {} }
  return <NotificationForm key={apiKey} apiKey={apiKey} initial={initial} />
}
