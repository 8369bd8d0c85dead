import { ApiError } from '~/lib/api-error'
import { restCall } from '~/lib/rest-call'

/** How a key is asked for: the dashboard passes its server functions, the demos use REST. */
export type IssueKey = (kind: 'trial' | 'empty', captcha: string) => Promise<{ api_key: string }>

const restIssue: IssueKey = (kind, captcha) =>
  restCall<{ api_key: string }>('POST', `api_key/${kind}`, { form: { captcha } })

export interface IssuedKey {
  apiKey: string
  /** The network had too many trial keys: spec §4's fallback, a key with no tokens. */
  empty: boolean
}

/**
 * Spec §4's trial key for a solved captcha: on a rate limit (429) the fallback is an empty, zero-token key;
 * any other failure is thrown. Shared by the dashboard and the product pages' demos.
 */
export async function issueTrialKey(captcha: string, issue: IssueKey = restIssue): Promise<IssuedKey> {
  try {
    return { apiKey: (await issue('trial', captcha)).api_key, empty: false }
  } catch (failure) {
    if (!(failure instanceof ApiError && failure.code === 'resource-exhausted')) throw failure
    // The server checks the rate limit before spending the captcha, so the same answer still counts.
    return { apiKey: (await issue('empty', captcha)).api_key, empty: true }
  }
}
