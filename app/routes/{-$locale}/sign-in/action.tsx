import { createFileRoute } from '@tanstack/react-router'
import { ActionPage } from '~/features/auth/action-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { authActionSearchSchema } from '~/lib/guard-search'
import { pageHead } from '~/lib/seo'

/** The identity service's e-mail links (verify, e-mail-link sign-in, reset) open here. */
export const Route = createFileRoute('/{-$locale}/sign-in/action')({
  validateSearch: authActionSearchSchema,
  head: (ctx) => pageHead(ctx, { ...pageMeta.signIn, noindex: true }),
  component: ActionPage,
})
