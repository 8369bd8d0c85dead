import type { Served } from '../api/search/served'
import { pacedJsonResponse } from './errors'

/**
 * The answer as JSON with `X-Engine` naming what computed it and `X-Options-Not-Applied` listing what was
 * accepted but not applied: clients that always send an option (LangChain's `task`, OpenAI's `user`) keep
 * working, and the answer still says the option changed nothing.
 */
export function servedResponse<T>(served: Served<T>): Promise<Response> {
  return answerNaming(served.answer, served.notApplied, { 'x-engine': served.engine })
}

/** The answer as JSON (written in paced slices), naming in `X-Options-Not-Applied` what the request gave that changed nothing. */
export function answerNaming<T>(
  answer: T,
  notApplied: string[],
  headers: Record<string, string> = {},
): Promise<Response> {
  if (notApplied.length > 0) headers = { ...headers, 'x-options-not-applied': notApplied.join(', ') }
  return pacedJsonResponse(answer, { headers })
}
