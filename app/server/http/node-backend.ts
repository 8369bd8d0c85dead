import type { ServerEnv } from '../env'

/**
 * The Node build serves every capability itself, so nothing is routed elsewhere. The edge build swaps this
 * file for `node-backend.edge.ts`, which hands the reader, bulk jobs and the onnx engine to a Node instance.
 */
export async function routeToNode(
  request: Request,
  pathname: string,
  env: ServerEnv,
  requestId: string,
): Promise<Response | undefined> {
  void [request, pathname, env, requestId]
  return undefined
}
