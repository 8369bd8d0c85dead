import { createFileRoute } from '@tanstack/react-router'
import { findTransaction, latestTransaction } from '~/server/domain/transactions'
import { TransactionNotFound } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseQuery } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { transactionQuery } from '~/server/http/schemas'

/** The key's latest transaction record (null before the first), or one by id; another key's is not found. */
export const Route = createFileRoute('/api/v1/billing/transaction')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const { transaction_id } = parseQuery(request, transactionQuery)
        const { db, key } = await keyHolder(request)
        if (transaction_id === undefined) return jsonResponse(await latestTransaction(db, key.id))
        const record = await findTransaction(db, key.id, Number(transaction_id))
        if (!record) throw new TransactionNotFound()
        return jsonResponse(record)
      }),
    },
  },
})
