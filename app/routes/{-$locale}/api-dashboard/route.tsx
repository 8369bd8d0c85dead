import { createFileRoute, Outlet } from '@tanstack/react-router'
import * as v from 'valibot'
import { AppProviders } from '~/components/site/app-providers'
import { SiteHeader } from '~/components/site/header'

/** `login` comes from the farewell redirect, `sui` from the guard that sends it here (spec §2). */
const searchSchema = v.looseObject({
  login: v.optional(v.boolean()),
  sui: v.optional(v.unknown()),
})

export const Route = createFileRoute('/{-$locale}/api-dashboard')({
  validateSearch: searchSchema,
  component: () => (
    <AppProviders>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-6xl px-4 py-8">
        <Outlet />
      </main>
    </AppProviders>
  ),
})
