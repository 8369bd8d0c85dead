import { useLingui } from '@lingui/react/macro'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { PencilIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { RenameForm } from '~/components/form/rename-form'
import { Button } from '~/components/ui/button'
import { classifierNames } from '../browser-names'
import { renameClassifierMutation } from './queries'

/**
 * A classifier's name, kept on the server with the classifier (so every browser of the key shows it), renamed
 * in place. A name an earlier version kept only in this browser is moved to the server once, then forgotten here.
 */
export function ClassifierName({ apiKey, id, name }: { apiKey: string; id: string; name: string | null }) {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const rename = useMutation(renameClassifierMutation(queryClient))
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState('')
  const kept = classifierNames.use()[id]
  useEffect(() => {
    if (!kept) return
    classifierNames.set(id, '')
    if (name === null) rename.mutate({ apiKey, id, name: kept })
    // Once per name found in this browser (`rename` is a new object each render, so it is not a dependency).
  }, [kept, name, apiKey, id])
  const shown = name ?? kept
  const save = () => rename.mutate({ apiKey, id, name: draft.trim() || null }, { onSuccess: () => setEditing(false) })
  if (editing)
    return (
      <RenameForm
        label={t`Name of the classifier`}
        value={draft}
        onChange={setDraft}
        onSave={save}
        onCancel={() => setEditing(false)}
        busy={rename.isPending}
        className="gap-1"
        fieldClassName="max-w-48"
      />
    )
  return (
    <span className="flex items-center gap-1">
      <span className="font-medium break-words" data-testid="classifier-name">
        {shown ?? <span className="text-muted-foreground">{t`Unnamed classifier`}</span>}
      </span>
      <Button
        size="icon"
        variant="ghost"
        onClick={() => {
          setDraft(shown ?? '')
          setEditing(true)
        }}
        aria-label={t`Rename the classifier`}
        data-testid="rename-classifier"
      >
        <PencilIcon aria-hidden="true" />
      </Button>
    </span>
  )
}
