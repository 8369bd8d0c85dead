import start from '@tanstack/react-start/server-entry'
import { endpointMethods } from './endpoint-methods'
import { provideBatchLines } from './server/api/batches/lines'
import { withConnectionScope } from './server/connection-scope'
import { serverEnv } from './server/env'
import { answerBatchLine } from './server/http/batch-lines'
import { provideEndpointMethods } from './server/http/endpoint-methods-lookup'
import { withRelativeLocation } from './server/http/redirects'
import { withRootAddressing } from './server/http/root-addressing'

// The request middleware (app/start.ts) answers a wrong method from the route tree, which it may not import.
provideEndpointMethods(endpointMethods)
// The job worker answers a batch's lines as their endpoints answer requests, which only the HTTP edge knows.
provideBatchLines(answerBatchLine)

/** The request as routed: one addressed as the original reader's clients address it goes to its route. */
function routed(request: Request): Request {
  let env
  try {
    env = serverEnv()
  } catch {
    // A bad environment is answered by the request scope, with its message, whatever the path.
    return request
  }
  return withRootAddressing(request, env)
}

/**
 * Answers one request as the server does: the original reader's root addressing (`GET /https://…`,
 * `POST /`, `READER_HOST`: ./server/http/root-addressing.ts), then Start's handler with every request
 * middleware of app/start.ts, the routes and the pages. The server entry (app/server.ts) serves it; the tests
 * send their requests to it by URL.
 */
export function answerRequest(request: Request, options?: Parameters<typeof start.fetch>[1]): Promise<Response> {
  return withConnectionScope(async () => withRelativeLocation(request, await start.fetch(routed(request), options)))
}
