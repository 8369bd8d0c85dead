import { Trans, useLingui } from '@lingui/react/macro'
import { TriangleAlertIcon } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { CopyButton } from '../copy-button'
import { notify } from '../notify'
import { orgKeys } from './queries'
import { useAction } from './use-action'

/** A new admin key by name; its value is shown here once (only its hash is kept), with a copy button. */
export function CreateAdminKey({ organisationId }: { organisationId: string }) {
  const { t } = useLingui()
  const { busy, error, run } = useAction(orgKeys.adminKeys(organisationId))
  const [name, setName] = useState('')
  const [created, setCreated] = useState<{ name: string; value: string }>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const made = await run(async () => {
      const key = await organisationsApi.createAdminKey(organisationId, name.trim())
      setCreated({ name: key.name, value: key.value })
    })
    if (made) {
      setName('')
      notify.success(t`Admin key created.`)
    }
  }
  if (created)
    return (
      <div
        role="status"
        className="flex flex-col gap-3 rounded-md border border-primary/40 p-3"
        data-testid="new-admin-key"
      >
        <p className="text-sm font-medium break-words">
          <Trans>{created.name} is ready. Copy it now: it is not shown again.</Trans>
        </p>
        <div className="flex items-center gap-2">
          <code
            translate="no"
            data-testid="new-admin-key-value"
            className="min-w-0 flex-1 rounded-md border bg-muted px-3 py-2 font-mono text-sm break-all"
          >
            {created.value}
          </code>
          <CopyButton value={created.value} label={t`Copy the new admin key`} testId="copy-admin-key" />
        </div>
        <p className="flex gap-2 text-sm text-muted-foreground">
          <TriangleAlertIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-destructive" />
          <Trans>
            Only its fingerprint is kept, so it cannot be shown again. Anyone who has it can manage this organisation:
            keep it like a password.
          </Trans>
        </p>
        <Button
          variant="outline"
          size="sm"
          className="w-fit"
          onClick={() => setCreated(undefined)}
          data-testid="admin-key-done"
        >
          <Trans>I have saved it</Trans>
        </Button>
      </div>
    )
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="create-admin-key">
      <FormField id="admin-key-name" label={<Trans>New admin key</Trans>} className="min-w-0 sm:w-72">
        {(field) => (
          <Input
            {...field}
            required
            placeholder={t`Name, e.g. provisioning script`}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </FormField>
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={busy || !name.trim()} aria-busy={busy}>
        <Trans>Create admin key</Trans>
      </Button>
    </form>
  )
}
