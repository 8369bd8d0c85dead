import { Trans, useLingui } from '@lingui/react/macro'
import type * as React from 'react'
import { cn } from '~/lib/utils'
import { DocText } from './reference-bits'
import type { Constraint, PropertyRow } from './schema-rows'

/** Words a schema limit in the reader's language: `at most 3 items`, `from 1 to 1,000,000`. */
export function useConstraintText() {
  const { t, i18n } = useLingui()
  const text = (constraint: Constraint): string => {
    switch (constraint.kind) {
      case 'length':
      case 'items':
      case 'range': {
        const min = constraint.min === undefined ? '' : i18n.number(constraint.min)
        const max = constraint.max === undefined ? '' : i18n.number(constraint.max)
        const both = constraint.min !== undefined && constraint.max !== undefined
        if (constraint.kind === 'length')
          return both
            ? t`${min} to ${max} characters`
            : max
              ? t`at most ${max} characters`
              : t`at least ${min} characters`
        if (constraint.kind === 'items')
          return both ? t`${min} to ${max} items` : max ? t`at most ${max} items` : t`at least ${min} items`
        return both ? t`from ${min} to ${max}` : max ? t`at most ${max}` : t`at least ${min}`
      }
      case 'format':
        return t`format: ${constraint.value}`
      case 'pattern':
        return t`pattern: ${constraint.value}`
      case 'default':
        return t`default: ${constraint.value}`
      case 'each': {
        const limits = constraint.constraints.map(text).join(', ')
        return t`each item: ${limits}`
      }
    }
  }
  return text
}

/** A table that may scroll sideways on a phone; focusable so keyboard users can scroll it (axe: scrollable-region-focusable). */
export function ScrollTable({
  caption,
  columns,
  narrowFirst = false,
  children,
  className,
}: {
  caption: React.ReactNode
  /** The column heads, in order. */
  columns: React.ReactNode[]
  /** A first column of short codes (statuses) kept narrow. */
  narrowFirst?: boolean
  children: React.ReactNode
  className?: string
}) {
  return (
    <div
      tabIndex={0}
      className={cn(
        'overflow-x-auto rounded-md border focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none',
        className,
      )}
    >
      {/* The cells' look is set once for the page's ~4,000 cells (reference-table in styles.css). */}
      <table className="reference-table w-full border-collapse text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column, index) => (
              <th key={index} scope="col" className={narrowFirst && index === 0 ? 'w-24' : undefined}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  )
}

export function RequiredCell({ required }: { required: boolean }) {
  return (
    <td>
      {required ? (
        <span className="font-medium">
          <Trans>required</Trans>
        </span>
      ) : (
        <span className="text-muted-foreground">
          <Trans>optional</Trans>
        </span>
      )}
    </td>
  )
}

export function Details({ description, constraints }: { description?: string; constraints: Constraint[] }) {
  const constraintText = useConstraintText()
  return (
    <td className="min-w-56">
      {description && <DocText text={description} />}
      {constraints.length > 0 && (
        <p className="text-xs text-muted-foreground">{constraints.map(constraintText).join(' · ')}</p>
      )}
    </td>
  )
}

/** Name, type, required and limits of each property; nested properties indented under their parent. */
export function PropertyTable({ rows, caption }: { rows: PropertyRow[]; caption: React.ReactNode }) {
  return (
    <ScrollTable
      caption={caption}
      columns={[
        <Trans key="property">Property</Trans>,
        <Trans key="type">Type</Trans>,
        <Trans key="required">Required</Trans>,
        <Trans key="description">Description</Trans>,
      ]}
    >
      <tbody>
        {rows.map((row) => (
          <tr key={row.name}>
            <th
              scope="row"
              translate="no"
              className="whitespace-nowrap"
              style={{ paddingLeft: `${0.75 + row.depth}rem` }}
            >
              {row.name}
            </th>
            <td translate="no" className="font-mono text-xs">
              {row.type}
            </td>
            <RequiredCell required={row.required} />
            <Details description={row.description} constraints={row.constraints} />
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  )
}
