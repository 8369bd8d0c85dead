import { Trans, useLingui } from '@lingui/react/macro'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { getRouteApi, useNavigate } from '@tanstack/react-router'
import { MailOpenIcon } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '~/components/ui/card'
import { Skeleton } from '~/components/ui/skeleton'
import type { Organisation } from '~/contracts/organisations'
import { organisationsApi } from '~/lib/auth/organisations-api'
import { forgetInvitation, keepInvitation, pendingInvitation } from '~/lib/pending-invitation'
import { notify } from '../notify'
import { useOpenTab } from '../use-open-tab'
import { rememberOrganisation } from './use-chosen-organisation'
import { invitationPreviewQuery, orgKeys, refusalText } from './queries'
import { roleLabels } from './role-rights'

const route = getRouteApi('/{-$locale}/api-dashboard/{-$tab}')

/**
 * The invitation this visitor came by (the link's `?invitation=`, or kept in session storage through sign-in or
 * sign-up): what it offers, with Accept and Not now. Nothing when there is none.
 */
export function PendingInvitationCard({ onJoined }: { onJoined?: (organisation: Organisation) => void }) {
  const { invitation } = route.useSearch()
  const [token, setToken] = useState<string | null>(null)
  // Session storage exists only in the browser: read after hydration, so the server's HTML matches.
  useEffect(() => {
    keepInvitation(invitation)
    setToken(invitation ?? pendingInvitation())
  }, [invitation])
  if (!token) return null
  return <Offer token={token} onJoined={onJoined} onGone={() => setToken(null)} />
}

function Offer({
  token,
  onJoined,
  onGone,
}: {
  token: string
  onJoined?: (organisation: Organisation) => void
  onGone: () => void
}) {
  const { t, i18n } = useLingui()
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const openTab = useOpenTab()
  const preview = useQuery(invitationPreviewQuery(token))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const close = () => {
    forgetInvitation()
    onGone()
    void navigate({ to: '.', search: (previous) => ({ ...previous, invitation: undefined }), replace: true })
  }
  const accept = async () => {
    setBusy(true)
    setError(undefined)
    try {
      const joined = await organisationsApi.acceptInvitation(token)
      await queryClient.invalidateQueries({ queryKey: orgKeys.list })
      const name = joined.name
      notify.success(t`You joined ${name}.`)
      // Accepting is choosing it: the Members tab shows the organisation joined, from any tab the card was on.
      rememberOrganisation(joined.id)
      close()
      if (onJoined) onJoined(joined)
      else openTab('members')
    } catch (failure) {
      setError(refusalText(failure))
    } finally {
      setBusy(false)
    }
  }
  const offer = preview.data
  const role = offer ? i18n._(roleLabels[offer.role]) : ''
  const organisation = offer?.organisation ?? ''
  const email = offer?.email ?? ''
  return (
    <Card aria-labelledby="invitation-title" data-testid="invitation-offer" className="border-primary/40">
      <CardHeader>
        <CardTitle id="invitation-title" className="flex items-start gap-2 break-words">
          <MailOpenIcon aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
          {offer ? (
            <span className="min-w-0">
              <Trans>
                Join {organisation} as {role}
              </Trans>
            </span>
          ) : (
            <Trans>An invitation</Trans>
          )}
        </CardTitle>
        {offer && (
          <CardDescription className="break-words">
            <Trans>This invitation is for {email}.</Trans>
          </CardDescription>
        )}
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {preview.isPending && <Skeleton className="h-10 w-full" />}
        {preview.isError && (
          <p role="alert" className="text-sm text-destructive" data-testid="invitation-refused">
            {refusalText(preview.error)}
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm text-destructive" data-testid="invitation-refused">
            {error}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          {offer && (
            <Button onClick={() => void accept()} disabled={busy} aria-busy={busy} data-testid="accept-invitation">
              <Trans>Accept</Trans>
            </Button>
          )}
          <Button variant="outline" onClick={close} data-testid="dismiss-invitation">
            {preview.isError ? <Trans>Dismiss</Trans> : <Trans>Not now</Trans>}
          </Button>
        </div>
      </CardContent>
    </Card>
  )
}
