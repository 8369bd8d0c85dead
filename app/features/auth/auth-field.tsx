import { useId, type ComponentProps, type ReactNode } from 'react'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'

/** A labelled input with an optional hint below it, linked for screen readers. */
export function AuthField({
  label,
  hint,
  ...input
}: { label: ReactNode; hint?: (id: string) => ReactNode } & ComponentProps<typeof Input>) {
  const id = useId()
  const hintId = `${id}-hint`
  return (
    <div className="flex flex-col gap-2">
      <Label htmlFor={id}>{label}</Label>
      <Input id={id} aria-describedby={hint ? hintId : undefined} {...input} />
      {hint?.(hintId)}
    </div>
  )
}
