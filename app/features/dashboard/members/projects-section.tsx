import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { FormField } from '~/components/form/form-field'
import { RenameForm } from '~/components/form/rename-form'
import { Badge } from '~/components/ui/badge'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Skeleton } from '~/components/ui/skeleton'
import type { Organisation, Project } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { orgKeys, projectsQuery, refusalText } from './queries'
import { may } from './role-rights'
import { Section } from './section'
import { useAction } from './use-action'

/** The projects that group the organisation's keys: every member sees them; owners, admins and developers edit. */
export function ProjectsSection({ organisation }: { organisation: Organisation }) {
  const { t } = useLingui()
  const projects = useQuery(projectsQuery(organisation.id, true))
  const editable = may(organisation.role, 'manageProjects')
  const list = projects.data?.projects ?? []
  return (
    <Section id="projects" title={<Trans>Projects</Trans>}>
      {projects.isPending ? (
        <Skeleton className="h-12 w-full" />
      ) : projects.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {refusalText(projects.error)}
        </p>
      ) : list.length ? (
        <ul aria-label={t`Projects`} className="divide-y" data-testid="projects-list">
          {list.map((project) => (
            <ProjectRow key={project.id} organisation={organisation} project={project} editable={editable} />
          ))}
        </ul>
      ) : (
        <p className="text-sm text-muted-foreground">
          <Trans>No projects yet.</Trans>
        </p>
      )}
      {editable && <CreateProject organisation={organisation} />}
    </Section>
  )
}

function ProjectRow({
  organisation,
  project,
  editable,
}: {
  organisation: Organisation
  project: Project
  editable: boolean
}) {
  const { t } = useLingui()
  const [renaming, setRenaming] = useState(false)
  const [name, setName] = useState(project.name)
  const { busy, error, run } = useAction(orgKeys.projects(organisation.id))
  const archived = project.archived_at !== null
  const change = (change: { name?: string; archived?: boolean }) =>
    run(() => organisationsApi.changeProject(organisation.id, project.id, change))
  return (
    <li className="flex flex-col gap-2 py-3" data-testid="project-row">
      {renaming ? (
        <RenameForm
          label={t`Name of the project`}
          value={name}
          onChange={setName}
          busy={busy}
          onSave={() => void change({ name: name.trim() }).then((done) => done && setRenaming(false))}
          onCancel={() => setRenaming(false)}
        />
      ) : (
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm font-medium break-words">
            {project.name}
            {archived && (
              <Badge variant="secondary">
                <Trans>Archived</Trans>
              </Badge>
            )}
          </p>
          {editable && (
            <div className="flex flex-wrap gap-2">
              <Button variant="ghost" size="sm" onClick={() => setRenaming(true)} data-testid="rename-project">
                <Trans>Rename</Trans>
              </Button>
              <Button
                variant="outline"
                size="sm"
                disabled={busy}
                onClick={() => void change({ archived: !archived })}
                data-testid="archive-project"
              >
                {archived ? <Trans>Bring back</Trans> : <Trans>Archive</Trans>}
              </Button>
            </div>
          )}
        </div>
      )}
      {error && (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      )}
    </li>
  )
}

function CreateProject({ organisation }: { organisation: Organisation }) {
  const [name, setName] = useState('')
  const { busy, error, run } = useAction(orgKeys.projects(organisation.id))
  const submit = async (event: FormEvent) => {
    event.preventDefault()
    if (await run(() => organisationsApi.createProject(organisation.id, name.trim()))) setName('')
  }
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="create-project">
      <FormField id="new-project-name" label={<Trans>New project</Trans>} error={error}>
        {(field) => (
          <Input
            {...field}
            value={name}
            required
            maxLength={100}
            onChange={(event) => setName(event.target.value)}
            className="sm:max-w-72"
          />
        )}
      </FormField>
      <Button type="submit" className="w-fit" disabled={busy || !name.trim()} aria-busy={busy}>
        <Trans>Create project</Trans>
      </Button>
    </form>
  )
}
