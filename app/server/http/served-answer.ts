import type { Served } from '../api/search/served'
import { pacedJsonResponse } from './errors'

/**
 * The answer as JSON with `X-Engine` naming what computed it and `X-Options-Not-Applied` listing what was
 * accepted but not applied: clients that always send an option (LangChain's `task`, OpenAI's `user`) keep
 * working, and the answer still says the option changed nothing.
 */
export function servedResponse<T>(served: Served<T>): Promise<Response> {
  const headers: Record<string, string> = { 'x-engine': served.engine }
  if (served.notApplied.length > 0) headers['x-options-not-applied'] = served.notApplied.join(', ')
  return pacedJsonResponse(served.answer, { headers })
}
