import { createFileRoute } from '@tanstack/react-router'
import { SignInPage } from '~/features/auth/sign-in-page'
import { pageMeta } from '~/features/marketing/page-meta'
import { signInSearchSchema } from '~/lib/guard-search'
import { pageHead } from '~/lib/seo'

export const Route = createFileRoute('/{-$locale}/sign-in/')({
  validateSearch: signInSearchSchema,
  head: (ctx) => pageHead(ctx, { ...pageMeta.signIn, noindex: true }),
  component: SignInPage,
})
