import { Trans } from '@lingui/react/macro'
import type { ReactNode } from 'react'
import { Button } from '~/components/ui/button'
import { Skeleton } from '~/components/ui/skeleton'
import { Table, TableBody, TableHead, TableHeader, TableRow } from '~/components/ui/table'
import { cn } from '~/lib/utils'

/** A column's heading; `numeric` right-aligns it over its figures. `false` leaves the column out. */
export type Column = { label: ReactNode; numeric?: boolean } | false

/** What a list read looks like to the table: TanStack Query's pending, error and (for pages) next-page state. */
export interface TableQuery {
  isPending: boolean
  error: Error | null
  hasNextPage?: boolean
  isFetchingNextPage?: boolean
  fetchNextPage?: () => unknown
}

type StateProps = {
  query: TableQuery
  count: number
  failed: (error: Error) => ReactNode
  /** What an empty list says; without it an empty list still shows its headings. */
  empty?: ReactNode
  emptyTestId?: string
  moreTestId?: string
  skeletonClassName?: string
  children: ReactNode
}

/**
 * A list read's states, the same on every screen: a skeleton while the first page loads, the failure
 * (`failed`, given the error) when nothing could be read, `empty` when there is nothing, else the list
 * (`children`), and a "Load more" button while the read has further pages.
 */
export function ListState({
  query,
  count,
  failed,
  empty,
  emptyTestId,
  moreTestId,
  skeletonClassName = 'h-32',
  children,
}: StateProps) {
  return (
    <>
      {query.isPending ? (
        <Skeleton className={cn('w-full rounded-md', skeletonClassName)} />
      ) : query.error && count === 0 ? (
        <p role="alert" className="text-sm text-muted-foreground">
          {failed(query.error)}
        </p>
      ) : count === 0 && empty ? (
        <p className="text-sm text-muted-foreground" data-testid={emptyTestId}>
          {empty}
        </p>
      ) : (
        children
      )}
      {query.hasNextPage && (
        <Button
          variant="outline"
          className="w-fit self-center"
          onClick={() => query.fetchNextPage?.()}
          disabled={query.isFetchingNextPage}
          data-testid={moreTestId}
        >
          {query.isFetchingNextPage ? <Trans>Loading…</Trans> : <Trans>Load more</Trans>}
        </Button>
      )}
    </>
  )
}

/**
 * The one data table of every screen: ListState's states, then the headings (`columns`) over the rows
 * (`children`, one TableRow each). `label` names the scrolling box, so a keyboard can scroll a table wider
 * than a phone; `surface` is what the table sits on (ui/table.tsx).
 */
export function DataTable({
  columns,
  label,
  testId,
  surface,
  children,
  ...state
}: StateProps & { columns: Column[]; label?: string; testId?: string; surface?: 'card' | 'page' }) {
  return (
    <ListState {...state}>
      <Table data-testid={testId} label={label} surface={surface}>
        <TableHeader>
          <TableRow>
            {columns.map(
              (column, index) =>
                column && (
                  <TableHead key={index} numeric={column.numeric}>
                    {column.label}
                  </TableHead>
                ),
            )}
          </TableRow>
        </TableHeader>
        <TableBody>{children}</TableBody>
      </Table>
    </ListState>
  )
}
