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

/**
 * The live screens' own messages (dashboard, sign-in, sandbox checkout): marketing pages never show them, so
 * those screens' routes load this catalog and merge it into the page's (app/components/site/app-providers.tsx)
 * instead of every page carrying it in its hydration data. The shared parts only those screens use (the
 * identity client, the sign-in fields, the local mailbox, the rename form, the tab names, the payment errors) go with them; the captcha widget is
 * also on the demos' trial-key offer and the contact form: it stays in the main catalog.
 */
const appSources = [
  '<rootDir>/app/features/dashboard/**',
  '<rootDir>/app/features/auth/**',
  '<rootDir>/app/features/sandbox-checkout/**',
  '<rootDir>/app/lib/auth/**',
  '<rootDir>/app/lib/dashboard-tabs.ts',
  '<rootDir>/app/lib/payment-error.ts',
  '<rootDir>/app/components/form/{auth-field,form-error,local-mailbox,password-rules,rename-form}.tsx',
]

export default defineConfig({
  sourceLocale,
  locales: [...catalogLocales],
  fallbackLocales: { default: sourceLocale },
  catalogs: [
    {
      path: `${root}/{locale}/messages`,
      include: ['<rootDir>/app', '<rootDir>/content'],
      exclude: [...demoSources, ...appSources],
    },
    { path: `${root}/{locale}/demos`, include: demoSources },
    { path: `${root}/{locale}/app`, include: appSources },
  ],
  format: formatter({ lineNumbers: false }),
  compileNamespace: 'es',
})
