/** An id a proxy in front of us already gave the request is kept, so one id follows it through both logs. */
const acceptable = /^[\w.:-]{1,128}$/

export function requestIdOf(request: Request): string {
  const given = request.headers.get('x-request-id')
  return given && acceptable.test(given) ? given : crypto.randomUUID()
}
