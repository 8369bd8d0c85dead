import { createFileRoute } from '@tanstack/react-router'
import { decodeCursor, paginatedTransactions } from '~/server/domain/transactions'
import { InvalidInput } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseQuery } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { paginatedTransactionQuery } from '~/server/http/schemas'

/** Transactions newest first, `num_records` at a time, continued with `cursor` = the previous `next_cursor`. */
export const Route = createFileRoute('/api/v1/billing/paginated_transaction')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const query = parseQuery(request, paginatedTransactionQuery)
        const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor)
        if (query.cursor !== undefined && before === undefined) throw new InvalidInput([{ loc: ['query', 'cursor'], msg: 'is not a cursor from this API', type: 'cursor' }])
        const { db, key } = await keyHolder(request)
        return jsonResponse(await paginatedTransactions(db, key.id, query.num_records, before))
      }),
    },
  },
})
