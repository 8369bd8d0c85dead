import { createFileRoute } from '@tanstack/react-router'
import { totalConsumption } from '~/server/domain/transactions'
import { InvalidInput } from '~/server/domain/refusals'
import { handle, jsonResponse } from '~/server/http/errors'
import { parseQuery } from '~/server/http/input'
import { keyHolder } from '~/server/http/key-holder'
import { totalConsumptionQuery } from '~/server/http/schemas'

const DAY = 86_400_000
const MAX_DAYS = 366

/** Tokens consumed per product and per day over [start, end] (UTC days, default the last 30). */
export const Route = createFileRoute('/api/v1/billing/total_consumption')({
  server: {
    handlers: {
      GET: handle(async ({ request }: { request: Request }) => {
        const query = parseQuery(request, totalConsumptionQuery)
        const today = Math.floor(Date.now() / DAY) * DAY
        const last = query.end ? Date.parse(`${query.end}T00:00:00Z`) : today
        const first = query.start ? Date.parse(`${query.start}T00:00:00Z`) : last - 29 * DAY
        if (first > last) throw new InvalidInput([{ loc: ['query', 'start'], msg: 'must not be after end', type: 'range' }])
        if ((last - first) / DAY >= MAX_DAYS) throw new InvalidInput([{ loc: ['query', 'end'], msg: `range must be at most ${MAX_DAYS} days`, type: 'range' }])
        const { db, key } = await keyHolder(request)
        return jsonResponse(await totalConsumption(db, key.id, new Date(first), new Date(last + DAY)))
      }),
    },
  },
})
