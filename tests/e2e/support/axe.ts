/** The WCAG levels the accessibility checks hold pages to: 2.2 AA, as Lighthouse's own audit does. */
export const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']
