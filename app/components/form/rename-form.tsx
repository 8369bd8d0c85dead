import { Trans } from '@lingui/react/macro'
import type { FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { cn } from '~/lib/utils'

/** A name edited in place: its field (focused), Save and Cancel. */
export function RenameForm({
  label,
  value,
  onChange,
  onSave,
  onCancel,
  busy = false,
  placeholder,
  className,
  fieldClassName = 'max-w-64',
  testId,
}: {
  /** The field's accessible name, e.g. "Name of the key". */
  label: string
  value: string
  onChange: (value: string) => void
  onSave: () => void
  onCancel: () => void
  busy?: boolean
  placeholder?: string
  className?: string
  fieldClassName?: string
  testId?: string
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave()
  }
  return (
    <form onSubmit={submit} className={cn('flex flex-wrap items-center gap-2', className)} data-testid={testId}>
      <Input
        aria-label={label}
        value={value}
        maxLength={60}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        className={fieldClassName}
        autoFocus
      />
      <Button type="submit" size="sm" disabled={busy}>
        <Trans>Save</Trans>
      </Button>
      <Button type="button" size="sm" variant="ghost" onClick={onCancel}>
        <Trans>Cancel</Trans>
      </Button>
    </form>
  )
}
