import { brand } from '#config'
import { serverEnv } from '~/server/env'
import type { RechargeNotice } from '../../domain/auto-recharge'

/** The mail that tells a key's owner auto-recharge turned itself off, and where to turn it on again. */
export function rechargeFailedNotice(): RechargeNotice {
  const link = `${serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')}/api-dashboard/auto-recharge`
  return {
    subject: `${brand.name}: auto-recharge is off for your API key`,
    text: (reason, key) =>
      `An automatic top-up of your API key ${key} could not be charged: ${reason}.\n\nNo tokens were bought and nothing was charged. Auto-recharge is now off, so it will not try this card again. Check your card, then turn auto-recharge on again: ${link}\n`,
  }
}
