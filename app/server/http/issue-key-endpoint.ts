import { apiKeyAnswer, captchaForm } from '~/contracts/keys'
import { issueKeyFor } from '../api/keys'
import type { KeyKind } from '../domain/keys'
import { endpoint } from './endpoint'

/** POST api_key/trial and api_key/empty: one contract, told apart by the kind of key and its description. */
export function issueKeyEndpoint(kind: KeyKind, doc: { summary: string; description?: string }) {
  return endpoint(
    { ...doc, auth: 'none', form: captchaForm, answer: apiKeyAnswer, errors: [400, 415, 422, 429] },
    ({ caller, form }) => issueKeyFor(caller, kind, form),
  )
}
