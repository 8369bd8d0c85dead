import type { Caller } from '../api/caller'
import { RequestLogRecord } from '../api/request-log/record'
import { serverEnv } from '../env'
import { currentRequest } from '../request-context'
import { addressNetwork, clientAddress } from './client-address'
import { requestIdOf } from './request-id'
import { sessionTokenOf } from './session-token'

/**
 * The call context an operation receives, read once from the request at the HTTP edge: its id (the one the
 * request scope gave it, which the answer's `X-Request-Id` and every log line name), the client's address
 * and network (TRUST_PROXY applied), the key it presented and the session cookie's token; for a `metered`
 * call (named by the product it is logged under), its request log row, which the endpoint writes with the
 * answer. What the call establishes as it runs (who it acts as, its rate state) the operations add to it.
 */
export function callerOf(request: Request, presentedKey: string | undefined, metered?: string): Caller {
  const scope = currentRequest()
  const address = clientAddress(request, scope?.env ?? serverEnv())
  const requestId = scope?.requestId ?? requestIdOf(request)
  return {
    requestId,
    address,
    network: addressNetwork(address),
    presentedKey,
    sessionToken: sessionTokenOf(request),
    ...(metered && { requestLog: new RequestLogRecord(requestId, metered) }),
  }
}
