import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Select } from '~/components/form/select-field'
import { Skeleton } from '~/components/ui/skeleton'
import { Button } from '~/components/ui/button'
import type { Member, Organisation, OrganisationRole } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { useFormat } from '~/lib/format'
import { membersQuery, orgKeys, refusalText } from './queries'
import { grantable, may, roleLabels } from './role-rights'
import { Section } from './section'
import { useAction } from './use-action'

/** The organisation's members with their roles; owners and admins change roles and remove members. */
export function MembersSection({ organisation, uid }: { organisation: Organisation; uid: string }) {
  const { t } = useLingui()
  const readable = may(organisation.role, 'manageMembers')
  const members = useQuery(membersQuery(organisation.id, readable))
  return (
    <Section id="members" title={<Trans>Members</Trans>}>
      {!readable ? (
        <p className="text-sm text-muted-foreground" data-testid="members-hidden">
          <Trans>Only owners and admins see who the members are. Your role here is shown above.</Trans>
        </p>
      ) : members.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : members.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(members.error)}
        </p>
      ) : (
        <ul aria-label={t`Members`} className="divide-y" data-testid="members-list">
          {members.data.members.map((member) => (
            <MemberRow key={member.uid} organisation={organisation} member={member} self={member.uid === uid} />
          ))}
        </ul>
      )}
    </Section>
  )
}

function MemberRow({ organisation, member, self }: { organisation: Organisation; member: Member; self: boolean }) {
  const { t, i18n } = useLingui()
  const format = useFormat()
  const { busy, error, run } = useAction(orgKeys.members(organisation.id))
  const mayManage = may(organisation.role, 'manageMembers')
  // Only an owner changes or removes an owner; the server also keeps the last owner one.
  const mayTouch = mayManage && (member.role !== 'owner' || may(organisation.role, 'manageOwners'))
  const name = member.display_name ?? member.email ?? member.uid
  const joined = format.day(member.joined_at.slice(0, 10))
  const roles: OrganisationRole[] = grantable(organisation.role)
  const change = (role: OrganisationRole) =>
    void run(() => organisationsApi.changeRole(organisation.id, member.uid, role))
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="member-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-medium break-words">
            {name}
            {self && (
              <span className="text-muted-foreground">
                {' '}
                <Trans>(you)</Trans>
              </span>
            )}
          </p>
          {member.email && member.email !== name && (
            <p className="text-xs break-all text-muted-foreground">{member.email}</p>
          )}
          <p className="text-xs text-muted-foreground">
            <Trans>Joined {joined}</Trans>
          </p>
        </div>
        {mayTouch && !self ? (
          <div className="flex flex-wrap items-center gap-2">
            <Select
              aria-label={t`Role of ${name}`}
              value={member.role}
              disabled={busy}
              onChange={(event) => change(event.target.value as OrganisationRole)}
              className="w-auto"
              data-testid="member-role"
            >
              {(roles.includes(member.role) ? roles : [member.role, ...roles]).map((role) => (
                <option key={role} value={role}>
                  {i18n._(roleLabels[role])}
                </option>
              ))}
            </Select>
            <Button
              variant="outline"
              size="sm"
              disabled={busy}
              onClick={() => void run(() => organisationsApi.removeMember(organisation.id, member.uid))}
              data-testid="remove-member"
            >
              <Trans>Remove</Trans>
            </Button>
          </div>
        ) : (
          <span className="text-sm" data-testid="member-role-text">
            {i18n._(roleLabels[member.role])}
          </span>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </li>
  )
}
