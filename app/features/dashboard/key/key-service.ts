import type { FetchChallenge } from '~/lib/captcha/solve'
import type { IssueKey } from '~/lib/issue-trial-key'
import { fetchCaptchaChallenge, requestEmptyKey, requestTrialKey } from '../key.functions'

/** The dashboard's captcha challenges over its server functions (it makes no REST calls of its own). */
export const dashboardChallenge: FetchChallenge = (action, signal) =>
  fetchCaptchaChallenge({ data: { action }, signal })

/** The dashboard's trial and empty keys over its server functions. */
export const dashboardIssue: IssueKey = (kind, captcha) =>
  (kind === 'trial' ? requestTrialKey : requestEmptyKey)({ data: { captcha } })
