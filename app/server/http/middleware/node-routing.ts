import { createMiddleware } from '@tanstack/react-start'
import { serverEnv } from '../../env'
import { currentRequest } from '../../request-context'
import { routeToNode } from '../node-backend'
import { requestIdOf } from '../request-id'

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
