import type * as React from 'react'
import { useId } from 'react'
import { Label } from '~/components/ui/label'
import { cn } from '~/lib/utils'

/** What a field's control gets: its id and the state screen readers announce with it. */
export type FieldProps = { id: string; 'aria-invalid': boolean; 'aria-describedby'?: string }

/**
 * The one field set of every form: a label, its control, a hint below it and the error in its place,
 * wired up with aria-invalid and aria-describedby. A hint may render its own element (given its id), as
 * the password rules do; `describedBy` names further elements that describe the control (a form's error).
 * The error is an alert, so a screen reader says it as it appears.
 */
export function FormField({
  id: givenId,
  label,
  hint,
  error,
  describedBy,
  className,
  children,
}: {
  id?: string
  label: React.ReactNode
  hint?: React.ReactNode | ((id: string) => React.ReactNode)
  error?: string | null
  describedBy?: string
  className?: string
  children: (props: FieldProps) => React.ReactNode
}) {
  const generated = useId()
  const id = givenId ?? generated
  const showHint = Boolean(hint) && !error
  const ids = [showHint && `${id}-hint`, error && `${id}-error`, describedBy].filter(Boolean).join(' ')
  return (
    <div className={cn('flex flex-col gap-2', className)}>
      <Label htmlFor={id}>{label}</Label>
      {children({ id, 'aria-invalid': Boolean(error), 'aria-describedby': ids || undefined })}
      {showHint &&
        (typeof hint === 'function' ? (
          hint(`${id}-hint`)
        ) : (
          <p id={`${id}-hint`} className="text-xs text-muted-foreground">
            {hint}
          </p>
        ))}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  )
}
