import { Trans, useLingui } from '@lingui/react/macro'
import type { RateLimit } from '../lib/call-api'

/** The answer's facts a developer checks first: which model answered and what it cost. */
export function AnswerMeta({
  model,
  tokens,
  charged = true,
  rateLimit,
}: {
  model?: string
  tokens: number
  /** False for an answer counted but not charged (the reader without a key). */
  charged?: boolean
  rateLimit?: RateLimit
}) {
  const { i18n } = useLingui()
  const item = 'flex flex-wrap gap-x-1.5'
  return (
    <dl
      data-testid="demo-meta"
      className="mt-auto flex flex-wrap gap-x-6 gap-y-1 border-t pt-3 text-xs text-muted-foreground"
    >
      {model && (
        <div className={item}>
          <dt>
            <Trans>Model</Trans>
          </dt>
          <dd translate="no" className="font-mono text-foreground">
            {model}
          </dd>
        </div>
      )}
      <div className={item}>
        <dt>{charged ? <Trans>Tokens charged</Trans> : <Trans>Tokens (not charged without a key)</Trans>}</dt>
        <dd data-testid="demo-usage" data-value={tokens} className="font-mono text-foreground">
          {i18n.number(tokens)}
        </dd>
      </div>
      {rateLimit && (
        <div className={item}>
          <dt>
            <Trans>Requests left this window</Trans>
          </dt>
          <dd className="font-mono text-foreground">
            {i18n.number(rateLimit.remaining)} / {i18n.number(rateLimit.limit)}
          </dd>
        </div>
      )}
    </dl>
  )
}
