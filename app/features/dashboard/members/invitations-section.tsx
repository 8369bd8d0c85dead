import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Select } from '~/components/form/select-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import type { Invitation, Organisation, OrganisationRole } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { useFormat } from '~/lib/format'
import { notify } from '../notify'
import { invitationsQuery, orgKeys, refusalText } from './queries'
import { grantable, roleHints, roleLabels } from './role-rights'
import { Section } from './section'
import { useAction } from './use-action'

/** Owners and admins invite by e-mail with a role, and see and revoke the invitations still pending. */
export function InvitationsSection({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui()
  const invitations = useQuery(invitationsQuery(organisation.id, true))
  const pending = invitations.data?.invitations.filter((invitation) => invitation.status === 'pending') ?? []
  return (
    <Section id="invitations" title={<Trans>Invitations</Trans>}>
      <InviteForm organisation={organisation} />
      {invitations.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : invitations.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(invitations.error)}
        </p>
      ) : pending.length ? (
        <ul aria-label={t`Pending invitations`} className="divide-y" data-testid="invitations-list">
          {pending.map((invitation) => (
            <InvitationRow key={invitation.id} organisation={organisation} invitation={invitation} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No pending invitations.</Trans>
        </p>
      )}
    </Section>
  )
}

function InviteForm({ organisation }: { organisation: Organisation }) {
  const { t, i18n } = useLingui()
  const roles = grantable(organisation.role)
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<OrganisationRole>('viewer')
  const { busy, error, run } = useAction(orgKeys.invitations(organisation.id))
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const address = email.trim()
    if (await run(() => organisationsApi.invite(organisation.id, address, role))) {
      notify.success(t`Invitation sent to ${address}.`)
      setEmail('')
    }
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="invite-form">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-start">
        <FormField id="invite-email" label={<Trans>E-mail address</Trans>} className="min-w-0 sm:w-72">
          {(field) => (
            <Input
              {...field}
              type="email"
              required
              maxLength={254}
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
          )}
        </FormField>
        <FormField
          id="invite-role"
          label={<Trans>Role</Trans>}
          hint={i18n._(roleHints[role])}
          className="min-w-0 sm:w-72"
        >
          {(field) => (
            <Select
              {...field}
              value={role}
              onChange={(event) => setRole(event.target.value as OrganisationRole)}
              data-testid="invite-role"
            >
              {roles.map((choice) => (
                <option key={choice} value={choice}>
                  {i18n._(roleLabels[choice])}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={busy} aria-busy={busy} data-testid="send-invitation">
        <Trans>Send invitation</Trans>
      </Button>
    </form>
  )
}

function InvitationRow({ organisation, invitation }: { organisation: Organisation; invitation: Invitation }) {
  const { i18n } = useLingui()
  const format = useFormat()
  const { busy, error, run } = useAction(orgKeys.invitations(organisation.id))
  const role = i18n._(roleLabels[invitation.role])
  const until = format.dateTime(invitation.expires_at)
  return (
    <li className="flex flex-col gap-1 py-3" data-testid="invitation-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="text-sm font-medium break-all">{invitation.email}</p>
          <p className="text-xs text-muted-foreground">
            <Trans>
              {role}, link works until {until}
            </Trans>
          </p>
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={busy}
          onClick={() => void run(() => organisationsApi.revokeInvitation(organisation.id, invitation.id))}
          data-testid="revoke-invitation"
        >
          <Trans>Revoke</Trans>
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </li>
  )
}
