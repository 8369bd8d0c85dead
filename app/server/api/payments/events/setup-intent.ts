import { cardSetupById } from '../../../domain/card-setups'
import { fulfilSetup } from '../card-setup'
import { metadataOf, type EventHandler } from './types'

/**
 * `setup_intent.succeeded`: a setup-mode checkout saved its card. The session's own completion does the
 * same; whichever comes first saves the card and the other finds it saved. The setup row is found by the id
 * it was created with, and what is saved is read from the service's record of the session.
 */
export const setupSucceeded: EventHandler = async ({ db, by, provider, event }) => {
  const metadata = metadataOf(event.object)
  if (metadata.kind !== 'card_setup' || !metadata.card_setup_id) return
  const setup = await cardSetupById(db, metadata.card_setup_id)
  if (setup) await fulfilSetup(db, by, provider, setup)
}
