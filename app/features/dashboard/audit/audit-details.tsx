import { useLingui as useLinguiRuntime } from '@lingui/react'
import { useLingui } from '@lingui/react/macro'
import type { AuditRow } from '~/contracts/audit-log'
import { useFormat } from '~/lib/format'
import { cn } from '~/lib/utils'
import { auditDetailLabels, auditIdDetails, auditTokenDetails, auditValueLabels } from './detail-labels'

type Details = AuditRow['details']

/**
 * What an audit event recorded, one "label: value" item each, in words and the locale's numbers. The items
 * wrap inside the column, so the columns after it (who, from where, which request) stay on the screen.
 */
export function AuditDetails({ details }: { details: Details }) {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const format = useFormat()
  const money = typeof details.amount === 'number' && typeof details.currency === 'string'
  const valueOf = (name: string, value: Details[string]): string => {
    if (value === null || value === '') return t`none`
    if (typeof value === 'boolean') return value ? t`yes` : t`no`
    // A purchase's amount is stored in minor units (cents), beside its currency.
    if (name === 'amount' && money)
      return format.money((value as number) / 100, (details.currency as string).toUpperCase())
    if (typeof value === 'number') return auditTokenDetails.has(name) ? format.tokens(value) : String(value)
    if (name === 'expires_at' && !Number.isNaN(Date.parse(value))) return format.dateTime(value)
    if (name === 'thresholds')
      return value
        .split(/\s+/)
        .map((n) => (/^\d+$/.test(n) ? format.tokens(Number(n)) : n))
        .join(', ')
    const word = auditValueLabels[value]
    return word ? i18n._(word) : value
  }
  const items = Object.entries(details).filter(([name]) => !(money && name === 'currency'))
  if (items.length === 0) return null
  return (
    <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground" data-testid="audit-details">
      {items.map(([name, value]) => (
        <li key={name} className="min-w-0 break-words">
          {auditDetailLabels[name] ? i18n._(auditDetailLabels[name]) : name}:{' '}
          <span
            className={cn(
              'text-foreground',
              auditIdDetails.has(name) && value !== null && 'font-mono break-all',
              typeof value === 'number' && 'tabular-nums',
            )}
          >
            {valueOf(name, value)}
          </span>
        </li>
      ))}
    </ul>
  )
}
