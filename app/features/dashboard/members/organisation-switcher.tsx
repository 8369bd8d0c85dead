import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { Select } from '~/components/form/select-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import type { Organisation } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { notify } from '../notify'
import { orgKeys, refusalText } from './queries'
import { roleLabels } from './role-rights'

/** Which organisation the tab shows (the user's own, personal first), and the form that makes a new one. */
export function OrganisationSwitcher({
  organisations,
  chosen,
  onChoose,
}: {
  organisations: Organisation[]
  chosen: Organisation
  onChoose: (id: string) => void
}) {
  const { t, i18n } = useLingui()
  const name = (organisation: Organisation) => (organisation.personal ? t`Personal` : organisation.name)
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
      <FormField id="organisation-choice" label={<Trans>Organisation</Trans>} className="min-w-0 sm:max-w-80">
        {(field) => (
          <Select
            {...field}
            value={chosen.id}
            onChange={(event) => onChoose(event.target.value)}
            data-testid="organisation-choice"
          >
            {organisations.map((organisation) => (
              <option key={organisation.id} value={organisation.id}>
                {`${name(organisation)} (${i18n._(roleLabels[organisation.role])})`}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <NewOrganisation onCreated={(organisation) => onChoose(organisation.id)} />
    </div>
  )
}

function NewOrganisation({ onCreated }: { onCreated: (organisation: Organisation) => void }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const [name, setName] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  if (!open)
    return (
      <Button variant="outline" className="w-fit" onClick={() => setOpen(true)} data-testid="new-organisation">
        <Trans>New organisation</Trans>
      </Button>
    )
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const made = await organisationsApi.create(name.trim())
      await queryClient.invalidateQueries({ queryKey: orgKeys.list })
      // Making it is the choice to look at it: the notice says the view changed.
      onCreated(made)
      const created = made.name
      notify.success(t`${created} created. It is shown below.`)
      setName('')
      setOpen(false)
    } catch (failure) {
      setError(refusalText(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form onSubmit={submit} className="flex min-w-0 flex-col gap-3" data-testid="new-organisation-form">
      <FormField id="new-organisation-name" label={<Trans>Name of the new organisation</Trans>} error={error}>
        {(field) => (
          <Input
            {...field}
            value={name}
            maxLength={100}
            required
            autoFocus
            onChange={(event) => setName(event.target.value)}
            className="sm:w-72"
          />
        )}
      </FormField>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={busy || !name.trim()} aria-busy={busy}>
          <Trans>Create organisation</Trans>
        </Button>
        <Button type="button" variant="ghost" onClick={() => setOpen(false)}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  )
}
