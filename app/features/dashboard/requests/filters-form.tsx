import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useId, useState } from 'react'
import { Button } from '~/components/ui/button'
import { fieldClass, Input } from '~/components/ui/input'
import type { RequestLogFilters } from '~/contracts/request-log'
import { cn } from '~/lib/utils'

/** The ledger's product names, as the log records them. */
const products = ['embeddings', 'reranker', 'classifier', 'reader', 'deepsearch', 'bulk-embeddings'] as const
const statuses = ['2xx', '4xx', '5xx', '402', '409', '422', '429'] as const
const HOUR = 3_600_000
const periods = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR, month: 30 * 24 * HOUR, all: 0 } as const
type Period = keyof typeof periods

export interface FilterChoice {
  keyId: string
  product: string
  model: string
  status: string
  period: Period
  requestId: string
  tag: string
}

export const noFilters: FilterChoice = {
  keyId: '',
  product: '',
  model: '',
  status: '',
  period: 'all',
  requestId: '',
  tag: '',
}

/** The API's filters for a choice, the time range counted back from `now`. */
export function filtersOf(choice: FilterChoice, now = Date.now()): RequestLogFilters {
  const text = (value: string) => value.trim() || undefined
  return {
    key_id: text(choice.keyId),
    product: text(choice.product),
    model: text(choice.model),
    status: text(choice.status),
    request_id: text(choice.requestId),
    tag: text(choice.tag),
    since: choice.period === 'all' ? undefined : new Date(now - periods[choice.period]).toISOString(),
  }
}

function Select({ className, ...props }: React.ComponentProps<'select'>) {
  return <select className={cn(fieldClass, 'h-10 pr-8', className)} {...props} />
}

export function FiltersForm({
  keys,
  applied,
  onApply,
}: {
  keys: Array<{ key_id: string; label: string }>
  applied: FilterChoice
  onApply: (choice: FilterChoice) => void
}) {
  const { t } = useLingui()
  const id = useId()
  const [choice, setChoice] = useState(applied)
  const set = (field: keyof FilterChoice) => (event: { target: { value: string } }) =>
    setChoice((current) => ({ ...current, [field]: event.target.value }))
  const statusLabel = (status: (typeof statuses)[number]) =>
    status === '2xx'
      ? t`Answered (2xx)`
      : status === '4xx'
        ? t`Refused (4xx)`
        : status === '5xx'
          ? t`Failed (5xx)`
          : status
  const periodLabels: Record<Period, string> = {
    hour: t`Last hour`,
    day: t`Last 24 hours`,
    week: t`Last 7 days`,
    month: t`Last 30 days`,
    all: t`Everything kept`,
  }

  return (
    <form
      role="search"
      aria-label={t`Filter requests`}
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3"
      onSubmit={(event) => {
        event.preventDefault()
        onApply(choice)
      }}
    >
      <FormField id={`${id}-request`} label={<Trans>Request id</Trans>} className="sm:col-span-2 lg:col-span-3">
        {(field) => (
          <Input
            {...field}
            value={choice.requestId}
            onChange={set('requestId')}
            placeholder={t`The X-Request-Id of a request`}
            maxLength={200}
            data-testid="filter-request-id"
          />
        )}
      </FormField>
      {keys.length > 1 && (
        <FormField id={`${id}-key`} label={<Trans>Key</Trans>}>
          {(field) => (
            <Select {...field} value={choice.keyId} onChange={set('keyId')} data-testid="filter-key">
              <option value="">{t`All keys of the account`}</option>
              {keys.map((key) => (
                <option key={key.key_id} value={key.key_id}>
                  {key.label}
                </option>
              ))}
            </Select>
          )}
        </FormField>
      )}
      <FormField id={`${id}-product`} label={<Trans>Product</Trans>}>
        {(field) => (
          <Select {...field} value={choice.product} onChange={set('product')} data-testid="filter-product">
            <option value="">{t`All products`}</option>
            {products.map((product) => (
              <option key={product} value={product}>
                {product}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField id={`${id}-model`} label={<Trans>Model</Trans>}>
        {(field) => (
          <Input
            {...field}
            value={choice.model}
            onChange={set('model')}
            placeholder="embeddings-v3"
            maxLength={200}
            data-testid="filter-model"
          />
        )}
      </FormField>
      <FormField id={`${id}-status`} label={<Trans>Status</Trans>}>
        {(field) => (
          <Select {...field} value={choice.status} onChange={set('status')} data-testid="filter-status">
            <option value="">{t`Any status`}</option>
            {statuses.map((status) => (
              <option key={status} value={status}>
                {statusLabel(status)}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <FormField id={`${id}-tag`} label={<Trans>Tag</Trans>}>
        {(field) => (
          <Input
            {...field}
            value={choice.tag}
            onChange={set('tag')}
            placeholder={t`The X-Request-Tag it was sent with`}
            maxLength={64}
            data-testid="filter-tag"
          />
        )}
      </FormField>
      <FormField id={`${id}-period`} label={<Trans>Time</Trans>}>
        {(field) => (
          <Select {...field} value={choice.period} onChange={set('period')} data-testid="filter-period">
            {(Object.keys(periods) as Period[]).map((period) => (
              <option key={period} value={period}>
                {periodLabels[period]}
              </option>
            ))}
          </Select>
        )}
      </FormField>
      <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-3">
        <Button type="submit" data-testid="apply-filters">
          <Trans>Apply filters</Trans>
        </Button>
        <Button
          type="button"
          variant="outline"
          onClick={() => {
            setChoice(noFilters)
            onApply(noFilters)
          }}
        >
          <Trans>Clear</Trans>
        </Button>
      </div>
    </form>
  )
}
