import type { MessageDescriptor } from '@lingui/core'
import { Trans, useLingui } from '@lingui/react/macro'
import { cn } from '~/lib/utils'

export interface Example<Values> {
  id: string
  label: MessageDescriptor
  values: Values
}

/** Preset inputs as toggle buttons; none is pressed once the visitor has edited the fields. */
export function ExamplePicker<Values>({
  examples,
  selected,
  onSelect,
}: {
  examples: readonly Example<Values>[]
  selected: string | undefined
  onSelect: (example: Example<Values>) => void
}) {
  const { i18n } = useLingui()
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-medium">
        <Trans>Examples</Trans>
      </legend>
      <div className="flex flex-wrap gap-2">
        {examples.map((example) => (
          <button
            key={example.id}
            type="button"
            data-example={example.id}
            aria-pressed={selected === example.id}
            onClick={() => onSelect(example)}
            className={cn(
              'max-w-full rounded-full border px-3 py-1 text-sm transition-colors outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50',
              selected === example.id
                ? 'border-primary bg-primary text-primary-foreground'
                : 'bg-background hover:bg-accent hover:text-accent-foreground',
            )}
          >
            {i18n._(example.label)}
          </button>
        ))}
      </div>
    </fieldset>
  )
}
