import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'
import { catalogLocales, sourceLocale } from './app.config'

export default defineConfig({
  sourceLocale,
  locales: [...catalogLocales],
  fallbackLocales: { default: sourceLocale },
  // LINGUI_CATALOG_ROOT lets the catalog test extract into a scratch folder and compare.
  catalogs: [
    {
      path: `${process.env.LINGUI_CATALOG_ROOT ?? '<rootDir>/locales'}/{locale}/messages`,
      include: ['<rootDir>/app', '<rootDir>/content'],
    },
  ],
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'es',
})
