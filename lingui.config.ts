import { defineConfig } from '@lingui/conf'
import { formatter } from '@lingui/format-po'
import { catalogLocales, sourceLocale } from './app.config'

export default defineConfig({
  sourceLocale,
  locales: [...catalogLocales],
  fallbackLocales: { default: sourceLocale },
  catalogs: [{ path: '<rootDir>/locales/{locale}/messages', include: ['<rootDir>/app', '<rootDir>/content'] }],
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'es',
})
