import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useState } from 'react'
import { refusalText } from './queries'

/**
 * A change a section makes: busy while it runs, the server's refusal kept to show beside the control, and the
 * named lists read again after it (a refusal too: someone else may have changed them meanwhile).
 */
export function useAction(...refresh: QueryKey[]) {
  const queryClient = useQueryClient()
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true)
    setError(undefined)
    try {
      await action()
      return true
    } catch (failure) {
      setError(refusalText(failure))
      return false
    } finally {
      await Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey })))
      setBusy(false)
    }
  }
  return { busy, error, run }
}
