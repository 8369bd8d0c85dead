import type { I18n, Messages } from '@lingui/core'
import { useLingui } from '@lingui/react'
import { use } from 'react'

const loads = new WeakMap<I18n, Promise<void>>()

/** Merges the demos' catalog (locales/<locale>/demos.po, see lingui.config.ts) into the page's i18n, once. */
function loadDemoMessages(i18n: I18n): Promise<void> {
  let load = loads.get(i18n)
  if (!load) {
    const locale = i18n.locale
    load = import(`../../../../locales/${locale}/demos.po`).then(({ messages }: { messages: Messages }) =>
      i18n.load(locale, messages),
    )
    loads.set(i18n, load)
  }
  return load
}

/**
 * Suspends a demo until its messages have arrived (the Suspense fallback is the skeleton). Each locale's
 * page has its own i18n instance, so a change of language loads that language's catalog.
 */
export function useDemoMessages(): void {
  use(loadDemoMessages(useLingui().i18n))
}
