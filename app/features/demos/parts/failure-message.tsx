import { Plural, Trans } from '@lingui/react/macro'
import { TriangleAlert } from 'lucide-react'
import { LocalizedLink } from '~/components/site/localized-link'
import type { DemoFailure } from '../lib/failure'

const linkClass = 'font-medium text-primary underline underline-offset-4'

/** The API's own words ("status: detail"), then what the visitor can do about it. */
export function FailureMessage({ failure }: { failure: DemoFailure }) {
  return (
    <div
      role="alert"
      data-testid="demo-failure"
      data-kind={failure.kind}
      className="flex gap-3 rounded-lg border border-destructive/40 bg-destructive/5 p-4 text-sm"
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
      <div className="flex min-w-0 flex-col gap-2">
        <p className="font-medium break-words text-destructive">{failure.message}</p>
        {failure.kind === 'exhausted' && (
          <p>
            <Trans>
              This key has used up its tokens. Buy more in the{' '}
              <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" params={{ tab: 'billing' }} className={linkClass}>
                dashboard&apos;s billing
              </LocalizedLink>{' '}
              and run it again.
            </Trans>
          </p>
        )}
        {failure.kind === 'rate-limited' &&
          (failure.retryAfterSeconds !== undefined ? (
            <p>
              <Trans>
                Too many requests for now. Try again in{' '}
                <Plural value={failure.retryAfterSeconds} one="# second" other="# seconds" />.
              </Trans>
            </p>
          ) : (
            <p>
              <Trans>Too many requests for now. Wait a moment, then try again.</Trans>
            </p>
          ))}
        {failure.kind === 'unauthorized' && (
          <p>
            <Trans>
              The stored key was not accepted: it may have been revoked or mistyped. Check it in the{' '}
              <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" className={linkClass}>
                dashboard
              </LocalizedLink>
              .
            </Trans>
          </p>
        )}
      </div>
    </div>
  )
}
