import { isRefusal, type Refusal } from '~/server/domain/refusals'

/** What a domain call ended with: `ok`, the kind of refusal, or `unexpected` (logged) for anything else. */
export function outcomeOf(promise: Promise<unknown>): Promise<'ok' | Refusal['kind'] | 'unexpected'> {
  return promise.then(
    () => 'ok' as const,
    (error: unknown) => {
      if (isRefusal(error)) return error.kind
      console.error(error)
      return 'unexpected' as const
    },
  )
}
