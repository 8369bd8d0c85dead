import { brand } from '#config'
import type { SignUpNotice } from '../../domain/sign-up-notice'
import { serverEnv } from '../../env'

/** The mail to an existing account's owner when someone signs up with its address, with the way in. */
export function existingAccountNotice(): SignUpNotice {
  const base = serverEnv().PUBLIC_BASE_URL.replace(/\/$/, '')
  return {
    subject: `${brand.name}: someone tried to create an account with your e-mail`,
    text: [
      `Someone (perhaps you) tried to create a ${brand.name} account with this e-mail address. It already has an account, so nothing was changed.`,
      '',
      `If it was you, sign in: ${base}/sign-in`,
      `Forgot your password? Reset it: ${base}/sign-in?mode=reset`,
      '',
      'If it was not you, you can ignore this message: your account and its keys are as they were.',
      '',
    ].join('\n'),
  }
}
