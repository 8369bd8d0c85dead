import { useLingui } from '@lingui/react'

/**
 * Token counts as model cards print them: powers of two in binary K (131072 → 128K, 524288 → 512K),
 * round thousands in decimal K (256000 → 256K), anything else as a localized number.
 */
export function useFormatTokens() {
  const { i18n } = useLingui()
  return (n: number) => {
    if (n >= 1024 && n % 1024 === 0) return `${i18n.number(n / 1024)}K`
    if (n >= 1000 && n % 1000 === 0) return `${i18n.number(n / 1000)}K`
    return i18n.number(n)
  }
}
