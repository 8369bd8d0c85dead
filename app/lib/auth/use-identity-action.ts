import { useState } from 'react'
import { useIdentityMessage } from './identity-message'

/** Runs one identity call at a time, keeping its failure as a message the form shows. */
export function useIdentityAction() {
  const message = useIdentityMessage()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const run = async (action: () => Promise<void>) => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
    } catch (failure) {
      console.error(failure)
      setError(message(failure))
    } finally {
      setBusy(false)
    }
  }
  return { busy, error, setError, run }
}
