import { Navigate } from '@tanstack/react-router'

/** Spec §2: any unknown path shows the landing page. */
export function NotFoundRedirect() {
  return <Navigate to="/{-$locale}" replace />
}
