import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import type { AdminKey } from '~/contracts/admin-keys'
import type { Organisation } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { useFormat } from '~/lib/format'
import { CreateAdminKey } from './create-admin-key'
import { adminKeysQuery, orgKeys, refusalText } from './queries'
import { Section } from './section'
import { useAction } from './use-action'

/** The organisation's Administration API keys (`sk-admin-…`), for its owners: listed redacted, made, revoked. */
export function AdminKeysSection({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui()
  const keys = useQuery(adminKeysQuery(organisation.id, true))
  const list = keys.data?.data ?? []
  return (
    <Section id="admin-keys" title={<Trans>Admin keys</Trans>}>
      <p className="text-sm text-muted-foreground">
        <Trans>
          An admin key manages the organisation from a script through the Administration API: members, projects, keys
          and their limits, usage, costs and webhooks. It acts as you.
        </Trans>
      </p>
      {keys.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : keys.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(keys.error)}
        </p>
      ) : list.length ? (
        <ul aria-label={t`Admin keys of the organisation`} className="divide-y" data-testid="admin-keys-list">
          {list.map((key) => (
            <AdminKeyRow key={key.id} organisationId={organisation.id} adminKey={key} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No admin keys yet.</Trans>
        </p>
      )}
      <CreateAdminKey organisationId={organisation.id} />
    </Section>
  )
}

function AdminKeyRow({ organisationId, adminKey }: { organisationId: string; adminKey: AdminKey }) {
  const { t } = useLingui()
  const format = useFormat()
  const { busy, error, run } = useAction(orgKeys.adminKeys(organisationId))
  const made = format.dateTime(new Date(adminKey.created_at * 1000).toISOString())
  const name = adminKey.name
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="admin-key-row">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0">
          <p className="flex flex-wrap items-center gap-2 text-sm font-medium break-words">
            {name}
            {adminKey.revoked_at !== null && (
              <Badge variant="secondary">
                <Trans>Revoked</Trans>
              </Badge>
            )}
          </p>
          <p className="font-mono text-xs break-all text-muted-foreground" translate="no">
            {adminKey.redacted_value}
          </p>
          <p className="text-xs text-muted-foreground">
            <Trans>Created {made}</Trans>
          </p>
        </div>
        {adminKey.revoked_at === null && (
          <Button
            variant="outline"
            size="sm"
            disabled={busy}
            aria-busy={busy}
            aria-label={t`Revoke ${name}`}
            onClick={() => void run(() => organisationsApi.revokeAdminKey(adminKey.id))}
            data-testid="revoke-admin-key"
          >
            <Trans>Revoke</Trans>
          </Button>
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
