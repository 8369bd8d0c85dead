import { Trans, useLingui } from '@lingui/react/macro'
import { PencilIcon } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { classifierNames } from '../browser-names'

/** A classifier's name, kept in this browser by its id, renamed in place. */
export function ClassifierName({ id }: { id: string }) {
  const { t } = useLingui()
  const names = classifierNames.use()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const name = names[id]
  const save = (event: FormEvent) => {
    event.preventDefault()
    classifierNames.set(id, draft)
    setEditing(false)
  }
  if (editing)
    return (
      <form onSubmit={save} className="flex flex-wrap items-center gap-1">
        <Input
          aria-label={t`Name of the classifier`}
          value={draft}
          maxLength={60}
          onChange={(event) => setDraft(event.target.value)}
          className="max-w-48"
          autoFocus
        />
        <Button type="submit" size="sm">
          <Trans>Save</Trans>
        </Button>
      </form>
    )
  return (
    <span className="flex items-center gap-1">
      <span className="font-medium break-words" data-testid="classifier-name">
        {name ?? <span className="text-muted-foreground">{t`Unnamed classifier`}</span>}
      </span>
      <Button
        size="icon"
        variant="ghost"
        onClick={() => {
          setDraft(name ?? '')
          setEditing(true)
        }}
        aria-label={t`Rename the classifier`}
      >
        <PencilIcon aria-hidden="true" />
      </Button>
    </span>
  )
}
