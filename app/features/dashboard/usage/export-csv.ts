import type { Transaction } from '~/contracts/billing'
import { transactionPage } from '../queries'
import { transactionsCsv } from './csv'

/** The server's page size limit; walking with it keeps the number of requests low. */
const exportPageSize = 100
/** Enough for any realistic key; stops a runaway walk (e.g. a cursor bug) from looping for ever. */
const maxExportPages = 500

/** Every transaction of the key, newest first, by following `next_cursor` to the end. */
export async function allTransactions(apiKey: string): Promise<Transaction[]> {
  const all: Transaction[] = []
  let cursor: string | undefined
  for (let page = 0; page < maxExportPages; page++) {
    const answer = await transactionPage(apiKey, exportPageSize, cursor)
    all.push(...answer.transactions)
    if (!answer.next_cursor) break
    cursor = answer.next_cursor
  }
  return all
}

export function downloadText(text: string, fileName: string, type = 'text/csv;charset=utf-8') {
  // The BOM makes spreadsheet apps read the file as UTF-8.
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

export async function exportTransactionsCsv(apiKey: string, now = new Date()) {
  const transactions = await allTransactions(apiKey)
  downloadText(transactionsCsv(transactions), `transactions-${now.toISOString().slice(0, 10)}.csv`)
  return transactions.length
}
