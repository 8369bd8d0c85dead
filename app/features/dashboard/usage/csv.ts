import type { Transaction as TransactionRecord } from '~/contracts/billing'

/** RFC 4180 field: quoted when it holds a comma, quote, or line break; quotes doubled. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  // A leading =, +, - or @ makes spreadsheets evaluate the cell; a quote mark keeps it text (OWASP CSV injection).
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

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
