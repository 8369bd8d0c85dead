import { localizePath, type Locale } from '~/lib/locale'

/** Where a checkout started on `tab` sends the buyer back: the same tab, in their language, saying how it went. */
export function checkoutReturnUrls(locale: Locale, tab: 'billing' | 'auto-recharge') {
  const page = `${window.location.origin}${localizePath(`/api-dashboard/${tab}`, locale)}`
  return {
    success_url: `${page}?checkout=success&session={CHECKOUT_SESSION_ID}`,
    cancel_url: `${page}?checkout=cancelled`,
  }
}
