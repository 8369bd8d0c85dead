import { Skeleton } from '~/components/ui/skeleton'
import { useAuth } from '~/lib/auth/auth-context'
import { PendingInvitationCard } from '../members/pending-invitation-card'
import { AccountBar } from './account-bar'
import { ProfileCard } from './profile-card'
import { TicketsCard } from './tickets-card'
import { VerificationCard } from './verification-card'

/** The signed-in user's account: a pending invitation, e-mail verification, profile and preferences, support requests. */
export function AccountTab() {
  const { status, profile } = useAuth()
  if (status === 'signed-out' || status === 'unavailable') return <AccountBar />
  if (status !== 'signed-in' || !profile) return <Skeleton className="h-96 w-full rounded-xl" />
  // An invitation kept through sign-up is offered here too: the e-mail check leads back to this tab.
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <div className="lg:col-span-2 empty:hidden">
        <PendingInvitationCard />
      </div>
      <div className="flex flex-col gap-6">
        <VerificationCard />
        <TicketsCard />
      </div>
      <ProfileCard profile={profile} />
    </div>
  )
}
