import { describe, expect, it } from 'vitest'
import { InvalidInput } from '~/server/domain/refusals'
import { requestScope } from '~/middleware/request-scope'
import { serverFnCalls, serverFnErrors } from '~/middleware/server-fn-answers'
import { runPipeline } from '../../support/request-pipeline'

type FnServer = (ctx: { next: () => Promise<unknown> }) => Promise<unknown>
const fnMiddleware = (serverFnErrors as unknown as { options: { server: FnServer } }).options.server
const call = (path = '/_serverFn/abc') => new Request(`http://localhost:3000${path}`, { method: 'POST' })

describe('server function answers', () => {
  it("answers a function's refusal as the REST routes do: its status and {detail}", async () => {
    const { response } = await runPipeline([requestScope, serverFnCalls], call(), async () => {
      try {
        return (await fnMiddleware({
          next: async () => {
            throw new InvalidInput([{ loc: ['body', 'name'], msg: 'required', type: 'missing' }])
          },
        })) as Response
      } catch (thrown) {
        return thrown as Response
      }
    })
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({ detail: [{ loc: ['body', 'name'], msg: 'required', type: 'missing' }] })
  })

  it('answers 404 for an unknown function and 400 for a call Start could not decode', async () => {
    const unknown = await runPipeline([requestScope, serverFnCalls], call(), () => {
      throw new Error('Server function not found')
    })
    expect(unknown.response.status).toBe(404)
    expect(unknown.response.headers.get('x-tss-raw')).toBe('thrown')
    const malformed = await runPipeline(
      [requestScope, serverFnCalls],
      call(),
      () => new Response('{}', { status: 500 }),
    )
    expect(malformed.response.status).toBe(400)
    expect(await malformed.response.json()).toEqual({ detail: 'Malformed server function call' })
  })

  it('leaves a failure the function itself answered as it is', async () => {
    const { response } = await runPipeline([requestScope, serverFnCalls], call(), async () => {
      await fnMiddleware({ next: async () => 'ok' })
      return new Response('{}', { status: 500 })
    })
    expect(response.status).toBe(500)
  })
})
