import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Select } from '~/components/form/select-field'
import { Badge } from '~/components/ui/badge'
import { Skeleton } from '~/components/ui/skeleton'
import type { Organisation, OrganisationKey, Project } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { useFormat } from '~/lib/format'
import { CreateOrganisationKey } from './create-organisation-key'
import { orgKeys, orgKeysQuery, projectsQuery, refusalText } from './queries'
import { may } from './role-rights'
import { Section } from './section'
import { useAction } from './use-action'

/** The organisation's keys (owners, admins and developers), each in its project, and a new key made into it. */
export function KeysSection({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui()
  const keys = useQuery(orgKeysQuery(organisation.id, true))
  const projects = useQuery(projectsQuery(organisation.id, true))
  const live = (projects.data?.projects ?? []).filter((project) => project.archived_at === null)
  const list = keys.data?.keys ?? []
  return (
    <Section id="organisation-keys" title={<Trans>Keys</Trans>}>
      {keys.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : keys.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(keys.error)}
        </p>
      ) : list.length ? (
        <ul aria-label={t`Keys of the organisation`} className="divide-y" data-testid="organisation-keys-list">
          {list.map((key) => (
            <KeyRow
              key={key.key_id}
              organisation={organisation}
              orgKey={key}
              projects={projects.data?.projects ?? []}
            />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No keys in this organisation yet.</Trans>
        </p>
      )}
      <CreateOrganisationKey organisation={organisation} projects={live} />
    </Section>
  )
}

function KeyRow({
  organisation,
  orgKey,
  projects,
}: {
  organisation: Organisation
  orgKey: OrganisationKey
  projects: Project[]
}) {
  const { t } = useLingui()
  const format = useFormat()
  const { busy, error, run } = useAction(orgKeys.keys(organisation.id))
  const label = orgKey.name ?? t`Unnamed key`
  const balance = format.tokens(orgKey.balance)
  const movable = may(organisation.role, 'readKeys') && !orgKey.revoked
  // A key may sit in an archived project; it stays listed as a choice so the select shows where it is.
  const choices = projects.filter((project) => project.archived_at === null || project.id === orgKey.project_id)
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="organisation-key-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium break-words">
            {label}
            {orgKey.revoked && (
              <Badge variant="secondary">
                <Trans>Revoked</Trans>
              </Badge>
            )}
          </p>
          <p className="font-mono text-xs break-all text-muted-foreground" translate="no">
            {orgKey.key_display}
          </p>
          <p className="text-xs text-muted-foreground">
            {orgKey.shared_balance ? (
              <Trans>Shared balance: {balance} tokens</Trans>
            ) : (
              <Trans>Own balance: {balance} tokens</Trans>
            )}
          </p>
        </div>
        {movable && (
          <Select
            aria-label={t`Project of ${label}`}
            value={orgKey.project_id ?? ''}
            disabled={busy}
            onChange={(event) => void run(() => organisationsApi.moveKey(orgKey.key_id, event.target.value || null))}
            className="w-auto max-w-full"
            data-testid="key-project"
          >
            <option value="">{t`No project`}</option>
            {choices.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </Select>
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
