import { Trans, useLingui } from '@lingui/react/macro'
import { setApiKey } from '~/lib/use-api-key'
import { constants } from '#config'
import { TrialKeyOffer, type IssuedKey } from './trial-key-offer'

/**
 * Without a key, the answer panel offers one in place; it is stored where the dashboard keeps it, so the
 * dashboard shows it afterwards.
 */
export function KeyOffer({ required, onIssued }: { required: boolean; onIssued: (issued: IssuedKey) => void }) {
  const { i18n } = useLingui()
  const pack = i18n.number(constants.freePackTokens)
  return (
    <div data-testid="demo-no-key" className="flex flex-col gap-3 rounded-lg border border-dashed bg-muted/30 p-4">
      <p className="text-sm">
        {required ? (
          <Trans>
            This demo runs on your own API key. Get a free trial key here: it comes with {pack} tokens, no sign-up
            needed.
          </Trans>
        ) : (
          <Trans>No key needed to try it. A free trial key raises your rate limit and comes with {pack} tokens.</Trans>
        )}
      </p>
      <TrialKeyOffer
        onKey={(issued) => {
          setApiKey(issued.apiKey)
          onIssued(issued)
        }}
      />
    </div>
  )
}

/** What became of the key just taken: its tokens, or why it has none. */
export function IssuedKeyNotice({ issued }: { issued: IssuedKey }) {
  const { i18n } = useLingui()
  const pack = i18n.number(constants.freePackTokens)
  return issued.empty ? (
    <p role="status" className="text-sm text-destructive">
      <Trans>
        Too many trial keys were requested from your network, so this key starts with 0 tokens. Buy a pack or transfer a
        balance to use it.
      </Trans>
    </p>
  ) : (
    <p role="status" className="text-sm text-success">
      <Trans>
        Your trial key is ready with {pack} free tokens. It is stored in this browser, and the dashboard shows it.
      </Trans>
    </p>
  )
}
