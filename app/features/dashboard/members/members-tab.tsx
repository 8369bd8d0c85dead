import { Trans } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import { useAuth } from '~/lib/auth/auth-context'
import { AccountBar } from '../account/account-bar'
import { AdminKeysSection } from './admin-keys-section'
import { InvitationsSection } from './invitations-section'
import { KeysSection } from './keys-section'
import { LeaveOrganisation } from './leave-organisation'
import { MembersSection } from './members-section'
import { OrganisationSettings } from './organisation-settings'
import { OrganisationSummary } from './organisation-summary'
import { OrganisationSwitcher } from './organisation-switcher'
import { PendingInvitationCard } from './pending-invitation-card'
import { ProjectsSection } from './projects-section'
import { organisationsQuery, refusalText } from './queries'
import { may } from './role-rights'
import { useChosenOrganisation } from './use-chosen-organisation'
import { UsageSection } from './usage-section'

/** The signed-in user's organisations: choose one, and see (or, as the role allows, manage) its people and keys. */
export function MembersTab() {
  const { status, profile } = useAuth()
  const signedIn = status === 'signed-in'
  const organisations = useQuery(organisationsQuery(signedIn))
  const { organisations: list, chosen, choose, lost } = useChosenOrganisation(organisations.data?.organisations)
  if (status === 'signed-out' || status === 'unavailable') return <AccountBar />
  if (!signedIn || !profile) return <Skeleton className="h-96 w-full rounded-xl" />
  return (
    <div className="flex flex-col gap-6">
      <PendingInvitationCard onJoined={(joined) => choose(joined.id)} />
      <Card aria-labelledby="members-title" data-testid="members">
        <CardHeader>
          <CardTitle id="members-title">
            <Trans>Organisations</Trans>
          </CardTitle>
          <CardDescription>
            <Trans>
              Share a balance, keys and projects with your team. Each member&apos;s role decides what they see and
              change.
            </Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="flex min-w-0 flex-col gap-6">
          {organisations.isPending ? (
            <Skeleton className="h-24 w-full" />
          ) : organisations.isError ? (
            <p role="alert" className="text-sm text-destructive">
              {refusalText(organisations.error)}
            </p>
          ) : chosen ? (
            <>
              <OrganisationSwitcher organisations={list} chosen={chosen} onChoose={choose} />
              {lost && (
                <p role="status" className="text-sm text-muted-foreground" data-testid="organisation-lost">
                  <Trans>The organisation chosen before is no longer among yours, so your personal one is shown.</Trans>
                </p>
              )}
              <OrganisationSummary organisation={chosen} />
              {!chosen.personal && (
                <OrganisationSettings
                  organisation={chosen}
                  onDeleted={() => choose(list.find((organisation) => organisation.personal)?.id ?? '')}
                />
              )}
              <MembersSection organisation={chosen} uid={profile.uid} />
              {chosen.personal ? (
                <p className="text-sm text-muted-foreground" data-testid="personal-note">
                  <Trans>Your personal organisation has only you. Create an organisation to invite others.</Trans>
                </p>
              ) : (
                may(chosen.role, 'manageMembers') && <InvitationsSection organisation={chosen} />
              )}
              <ProjectsSection organisation={chosen} />
              {may(chosen.role, 'readKeys') && <KeysSection organisation={chosen} />}
              {!chosen.personal && <UsageSection organisation={chosen} />}
              {may(chosen.role, 'manageAdminKeys') && <AdminKeysSection organisation={chosen} />}
              {!chosen.personal && (
                <LeaveOrganisation
                  organisation={chosen}
                  uid={profile.uid}
                  onLeft={() => choose(list.find((organisation) => organisation.personal)?.id ?? '')}
                />
              )}
            </>
          ) : null}
        </CardContent>
      </Card>
    </div>
  )
}
