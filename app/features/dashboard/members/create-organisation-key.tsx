import { Trans, useLingui } from '@lingui/react/macro'
import { useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { CaptchaWidget } from '~/components/captcha-widget'
import { FormField } from '~/components/form/form-field'
import { Select } from '~/components/form/select-field'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import type { Organisation, Project } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { CaptchaError, useCaptcha } from '~/lib/captcha/use-captcha'
import { NewKeyOnce } from '../account/new-key-once'
import { accountKeys } from '../account/queries'
import { useKeyHere } from '../account/use-key-here'
import { useDashboardKey } from '../dashboard-key'
import { dashboardChallenge } from '../key/key-service'
import { notify } from '../notify'
import { orgKeys, refusalText } from './queries'

/**
 * A new key in the organisation, or in one of its live projects. It is shown once here and is not put to use in
 * this browser: the dashboard keeps showing the key it shows until the user chooses another.
 */
export function CreateOrganisationKey({ organisation, projects }: { organisation: Organisation; projects: Project[] }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const { apiKey } = useDashboardKey()
  const keyHere = useKeyHere()
  const captcha = useCaptcha('new_key', dashboardChallenge)
  const [name, setName] = useState('')
  const [projectId, setProjectId] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const [created, setCreated] = useState<{ apiKey: string; name: string | null }>()
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const made = await organisationsApi.createKey(organisation.id, {
        name: name.trim() || null,
        project_id: projectId || null,
        captcha: await captcha.ensure(),
      })
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: orgKeys.keys(organisation.id) }),
        queryClient.invalidateQueries({ queryKey: accountKeys.keys }),
      ])
      setName('')
      setCreated({ apiKey: made.api_key, name: made.key.name })
      notify.success(t`Key created.`)
    } catch (failure) {
      if (!(failure instanceof CaptchaError)) setError(refusalText(failure))
    } finally {
      captcha.reset()
      setBusy(false)
    }
  }
  if (created)
    return (
      <NewKeyOnce
        {...created}
        inUse={created.apiKey === apiKey}
        onUse={(label) => keyHere(created.apiKey, label)}
        onDone={() => setCreated(undefined)}
      />
    )
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="create-organisation-key">
      <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
        <FormField id="org-key-name" label={<Trans>New key</Trans>} className="min-w-0 sm:w-72">
          {(field) => (
            <Input
              {...field}
              placeholder={t`Name, e.g. laptop or CI`}
              value={name}
              maxLength={60}
              onChange={(event) => setName(event.target.value)}
            />
          )}
        </FormField>
        {projects.length > 0 && (
          <FormField id="org-key-project" label={<Trans>Project</Trans>} className="min-w-0 sm:w-72">
            {(field) => (
              <Select {...field} value={projectId} onChange={(event) => setProjectId(event.target.value)}>
                <option value="">{t`No project`}</option>
                {projects.map((project) => (
                  <option key={project.id} value={project.id}>
                    {project.name}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        )}
      </div>
      <CaptchaWidget captcha={captcha} />
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
      <Button type="submit" className="w-fit" disabled={busy || captcha.state === 'unsupported'} aria-busy={busy}>
        <Trans>Create key</Trans>
      </Button>
    </form>
  )
}
