import type { Transaction as TransactionRecord } from '~/contracts/billing'
import { csvField } from '~/lib/csv-field'

export { csvField }

export function toCsv(header: readonly string[], rows: ReadonlyArray<readonly unknown[]>): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n'
}

export const transactionColumns = ['id', 'created_at', 'type', 'amount', 'balance_after', 'product', 'model'] as const

export function transactionsCsv(transactions: readonly TransactionRecord[]): string {
  return toCsv(
    transactionColumns,
    transactions.map((tx) => transactionColumns.map((column) => tx[column])),
  )
}
