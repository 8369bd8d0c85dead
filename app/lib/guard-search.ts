import * as v from 'valibot'
import { dashboardTabSchema } from './dashboard-tab-keys'

/**
 * One `?key=value` as the router parses it (`?s=abc` → 'abc', `?s=42` → 42, `?s=true` → true). A repeated
 * or JSON-shaped value falls back to '': still there, its value unreadable, rather than a failed page.
 */
const present = v.optional(v.fallback(v.union([v.string(), v.number(), v.boolean()]), ''))

/** The query parameters the locale route's guards read (spec §2); all others pass through as they came. */
export const localeSearchSchema = v.looseObject({
  /** Sends a page other than the dashboard to the dashboard; only its presence counts. */
  sui: present,
  /** Saved in local storage and removed from the URL by the client guard. */
  s: present,
})

/** An invitation link's token, as the server makes them (URL-safe); odd values are dropped. */
const invitation = v.fallback(v.optional(v.pipe(v.string(), v.regex(/^[\w-]{1,200}$/))), undefined)

/**
 * `login=true` comes from the farewell redirect; any other value means no login. `checkout` and `session`
 * are where a checkout sends the buyer back (the Billing tab confirms the purchase); odd values are dropped.
 */
export const dashboardSearchSchema = v.looseObject({
  login: v.fallback(v.optional(v.boolean()), undefined),
  checkout: v.fallback(v.optional(v.picklist(['success', 'cancelled'])), undefined),
  session: v.fallback(v.optional(v.pipe(v.string(), v.regex(/^cs_\w{1,200}$/))), undefined),
  /** An organisation's invitation link (the Members tab offers to accept it); kept through sign-in. */
  invitation,
})

/** The sign-in page: the dashboard tab to return to (read by the tabs' one rule), and the form to open. Odd values are dropped. */
export const signInSearchSchema = v.looseObject({
  tab: v.fallback(v.optional(dashboardTabSchema), undefined),
  mode: v.fallback(v.optional(v.picklist(['sign-in', 'sign-up', 'link', 'reset'])), undefined),
  invitation,
})

/** An identity e-mail's link (Firebase's action parameters). */
export const authActionSearchSchema = v.looseObject({
  mode: v.fallback(v.optional(v.string()), undefined),
  oobCode: v.fallback(v.optional(v.pipe(v.string(), v.maxLength(2048))), undefined),
})
