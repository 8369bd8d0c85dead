import { createFileRoute, redirect } from '@tanstack/react-router'

/** Spec §2: an unknown path shows the landing page, in the visitor's locale. */
export const Route = createFileRoute('/{-$locale}/$')({
  beforeLoad: ({ params }) => {
    throw redirect({ to: '/{-$locale}', params: { locale: params.locale }, replace: true })
  },
})
