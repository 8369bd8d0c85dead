import { useLingui } from '@lingui/react/macro'
import { PencilIcon } from 'lucide-react'
import { useState } from 'react'
import { RenameForm } from '~/components/form/rename-form'
import { Button } from '~/components/ui/button'
import { classifierNames } from '../browser-names'

/** A classifier's name, kept in this browser by its id, renamed in place. */
export function ClassifierName({ id }: { id: string }) {
  const { t } = useLingui()
  const names = classifierNames.use()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const name = names[id]
  const save = () => {
    classifierNames.set(id, draft)
    setEditing(false)
  }
  if (editing)
    return (
      <RenameForm
        label={t`Name of the classifier`}
        value={draft}
        onChange={setDraft}
        onSave={save}
        onCancel={() => setEditing(false)}
        className="gap-1"
        fieldClassName="max-w-48"
      />
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
