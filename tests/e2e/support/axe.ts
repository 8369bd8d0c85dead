import AxeBuilder from '@axe-core/playwright'
import type { Page } from 'playwright-core'

/** The WCAG levels the accessibility checks hold pages to: 2.2 AA, as Lighthouse's own audit does. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']

/**
 * Axe over `page` (or the part `include` names) with the rules of `tags`, answering only what fails: the same
 * rules run, but the passing nodes are not described and sent back, which was a quarter of each run's time.
 */
/** The WCAG violations on `page` (or in the part `include` names), each as its rule and where it failed. */
export async function axeViolations(page: Page, include?: string): Promise<string[]> {
  const { violations } = await axe(page, wcagTags, include)
  return violations.map((v) => `${v.id} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

export function axe(page: Page, tags: string[], include?: string) {
  const builder = new AxeBuilder({ page }).withTags(tags).options({ resultTypes: ['violations'] })
  return (include ? builder.include(include) : builder).analyze()
}
