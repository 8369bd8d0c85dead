/** The address of the peer that sent `request`: Node's server adapter (srvx) puts it on the request. */
export function socketAddress(request: Request): string | undefined {
  const r = request as Request & { ip?: string; context?: { clientAddress?: string } }
  return r.ip ?? r.context?.clientAddress
}
