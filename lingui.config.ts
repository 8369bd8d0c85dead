import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'
import { catalogLocales, sourceLocale } from './app.config'

// LINGUI_CATALOG_ROOT lets the catalog test extract into a scratch folder and compare.
const root = process.env.LINGUI_CATALOG_ROOT ?? '<rootDir>/locales'

/**
 * The live demos' own messages: their code loads only on the product pages that show them, and so does
 * their catalog (app/features/demos/lib/demo-messages.ts), instead of growing every page's hydration data.
 * The demos' loader, skeleton and error boundary render with the page and stay in the main catalog.
 */
const demoSources = ['lib', 'parts', 'embeddings', 'rerank', 'segment', 'classify', 'reader', 'deepsearch', 'serp'].map(
  (folder) => `<rootDir>/app/features/demos/${folder}/**`,
)

export default defineConfig({
  sourceLocale,
  locales: [...catalogLocales],
  fallbackLocales: { default: sourceLocale },
  catalogs: [
    { path: `${root}/{locale}/messages`, include: ['<rootDir>/app', '<rootDir>/content'], exclude: demoSources },
    { path: `${root}/{locale}/demos`, include: demoSources },
  ],
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'es',
})
