import { Trans, useLingui } from '@lingui/react/macro'
import type { Organisation } from '~/contracts/organisations'
import { useFormat } from '~/lib/format'
import { roleHints, roleLabels } from './role-rights'

/** The chosen organisation at a glance: the caller's role in it (as the server reports it) and its shared balance. */
export function OrganisationSummary({ organisation }: { organisation: Organisation }) {
  const { i18n } = useLingui()
  const format = useFormat()
  const role = i18n._(roleLabels[organisation.role])
  const rights = i18n._(roleHints[organisation.role])
  const balance = organisation.balance === null ? null : format.tokens(organisation.balance)
  return (
    <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[auto_1fr]" data-testid="organisation-summary">
      <dt className="text-muted-foreground">
        <Trans>Your role</Trans>
      </dt>
      <dd className="min-w-0 break-words" data-testid="organisation-role">
        <Trans>
          {role}: {rights}
        </Trans>
      </dd>
      <dt className="text-muted-foreground">
        <Trans>Balance</Trans>
      </dt>
      <dd className="min-w-0 break-words">
        {organisation.personal ? (
          <Trans>Each key keeps its own balance.</Trans>
        ) : balance === null ? (
          <Trans>Not shown to your role.</Trans>
        ) : (
          <Trans>{balance} tokens, shared by its keys</Trans>
        )}
      </dd>
    </dl>
  )
}
