import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '~/server/env'
import { currentRequest } from '~/server/request-context'
import { routeToNode } from '~/server/http/node-backend'
import { requestIdOf } from '~/server/http/request-id'

/**
 * Edge build only (node-backend.edge.ts): what needs Node (the reader, bulk jobs, the onnx engine) is handed
 * to a Node instance, which checks limits and methods itself. The Node build serves everything and passes on.
 */
export const nodeRouting = createMiddleware().server(async ({ request, pathname, next }) => {
  const scope = currentRequest()
  const routed = await routeToNode(
    request,
    pathname,
    scope?.env ?? serverEnv(),
    scope?.requestId ?? requestIdOf(request),
  )
  return routed ?? next()
})
