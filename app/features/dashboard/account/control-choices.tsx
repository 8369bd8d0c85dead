import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import { Trans, useLingui } from '@lingui/react/macro'
import { useId, type ReactNode } from 'react'
import { controlledProducts, type ControlledProduct } from '~/contracts/key-controls'

const productLabels: Record<ControlledProduct, MessageDescriptor> = {
  embeddings: msg`Embeddings`,
  reranker: msg`Reranker`,
  classifier: msg`Classifier (classify and train)`,
  reader: msg`Reader`,
  deepsearch: msg`DeepSearch`,
  'bulk-embeddings': msg`Bulk embeddings`,
}

/** A group of checkboxes with its legend and error, wired for screen readers. */
export function Choices({
  legend,
  options,
  chosen,
  onChange,
  error,
  testId,
}: {
  legend: ReactNode
  options: Array<{ value: string; label: ReactNode }>
  chosen: string[]
  onChange: (chosen: string[]) => void
  error?: string
  testId: string
}) {
  const id = useId()
  const toggle = (value: string, on: boolean) =>
    onChange(on ? [...chosen, value] : chosen.filter((item) => item !== value))
  return (
    <fieldset
      className="flex flex-col gap-2"
      aria-describedby={error ? `${id}-error` : undefined}
      aria-invalid={error ? true : undefined}
      data-testid={testId}
    >
      <legend className="mb-1 text-sm font-medium">{legend}</legend>
      <div className="grid gap-x-4 sm:grid-cols-2">
        {options.map((option) => (
          <div key={option.value} className="flex min-h-8 items-center gap-2 text-sm">
            <input
              id={`${id}-${option.value}`}
              type="checkbox"
              className="size-4 shrink-0 accent-primary"
              checked={chosen.includes(option.value)}
              onChange={(event) => toggle(option.value, event.target.checked)}
            />
            <label htmlFor={`${id}-${option.value}`} className="min-w-0 break-words">
              {option.label}
            </label>
          </div>
        ))}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-destructive">
          {error}
        </p>
      )}
    </fieldset>
  )
}

/** The products the key may be charged for; all ticked means every product, new ones included. */
export function ProductChoices(props: { chosen: string[]; onChange: (chosen: string[]) => void; error?: string }) {
  const { i18n } = useLingui()
  return (
    <Choices
      {...props}
      testId="allowed-products"
      legend={<Trans>Allowed products</Trans>}
      options={controlledProducts.map((product) => ({ value: product, label: i18n._(productLabels[product]) }))}
    />
  )
}

/** The models (API ids) the key may name; all ticked means every model this server serves, new ones included. */
export function ModelChoices(props: {
  models: string[]
  chosen: string[]
  onChange: (chosen: string[]) => void
  error?: string
}) {
  const { models, ...rest } = props
  return (
    <Choices
      {...rest}
      testId="allowed-models"
      legend={<Trans>Allowed models</Trans>}
      options={models.map((model) => ({ value: model, label: <code className="font-mono text-xs">{model}</code> }))}
    />
  )
}
