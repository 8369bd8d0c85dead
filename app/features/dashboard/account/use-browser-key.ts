import { useLingui } from '@lingui/react/macro'
import { dashboardChallenge } from '../key/key-service'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { accountApi } from '~/lib/auth/account-api'
import { useAuth } from '~/lib/auth/auth-context'
import { useCaptcha, CaptchaError, type Captcha } from '~/lib/captcha/use-captcha'
import { notify } from '../notify'
import { forgetKeyData, keyInfoQuery, toastError } from '../queries'
import { useApiKey } from '~/lib/use-api-key'
import { keyNames } from '../browser-names'
import { accountKeys, accountKeysQuery } from './queries'

/** This browser's key when a signed-in user's account does not hold it: the key signing out would lose. */
export interface UnclaimedKey {
  apiKey: string
  keyId: string
  balance: number
  /** The name this browser gave it, if any. */
  name: string | undefined
}

export function useUnclaimedBrowserKey(): UnclaimedKey | null {
  const { status } = useAuth()
  const { apiKey } = useApiKey()
  const keys = useQuery(accountKeysQuery(status === 'signed-in'))
  const info = useQuery(keyInfoQuery(apiKey))
  const names = keyNames.use()
  if (status !== 'signed-in' || !apiKey || !info.data || !keys.data) return null
  const keyId = info.data.key_id
  if (keys.data.keys.some((key) => key.key_id === keyId)) return null
  return { apiKey, keyId, balance: info.data.wallet.total_balance, name: names[keyId] }
}

/** Adds this browser's key to the account, with the captcha a claim asks for; resolves whether it was added. */
export function useClaimBrowserKey(unclaimed: UnclaimedKey): {
  captcha: Captcha
  busy: boolean
  claim: () => Promise<boolean>
} {
  const { t } = useLingui()
  const queryClient = useQueryClient()
  const captcha = useCaptcha('claim_key', dashboardChallenge)
  const [busy, setBusy] = useState(false)
  const claim = async () => {
    const { apiKey, keyId } = unclaimed
    setBusy(true)
    try {
      await accountApi.claimKey(apiKey, await captcha.ensure(), keyNames.of(keyId))
      await queryClient.invalidateQueries({ queryKey: accountKeys.keys })
      notify.success(t`The key of this browser is now in your account.`)
      return true
    } catch (error) {
      if (!(error instanceof CaptchaError)) toastError(error)
      // Another account's key: this browser may not keep reading it.
      if ((error as { status?: number }).status === 403) forgetKeyData(queryClient, unclaimed.apiKey)
      return false
    } finally {
      captcha.reset()
      setBusy(false)
    }
  }
  return { captcha, busy, claim }
}
