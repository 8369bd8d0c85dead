import { useCallback, useEffect, useRef, useState } from 'react'
import { ApiError } from '~/lib/api-error'
import { failureOf, type DemoFailure } from './failure'
import type { RunState } from './use-demo-run'

/**
 * Reads one streamed call: `update` shows each completer state as it arrives; resolves with the last one.
 * Throws an ApiError for a refusal (before or during the stream).
 */
export type StreamCall<Body, T> = (
  body: Body,
  apiKey: string | null,
  update: (partial: T) => void,
  signal: AbortSignal,
) => Promise<T>

/** A refused call as the demos show it: "status: detail", with what to do for 401, 402 and 429. */
export function streamFailure(error: unknown): DemoFailure {
  if (error instanceof ApiError)
    return error.status === 0
      ? { kind: 'other', message: error.message }
      : failureOf(error.status, { detail: error.detail }, { retryAfter: error.retryAfter })
  return { kind: 'other', message: String(error) }
}

/**
 * A streaming demo's calls: the answer renders as it arrives and Cancel stops it (the server sees the
 * stream closed and stops working); a second Run while one is in flight is ignored, and leaving the page
 * cancels the call.
 */
export function useStreamRun<Body, T>(start: StreamCall<Body, T>) {
  const [state, setState] = useState<RunState<Body, T>>({ status: 'idle' })
  const controller = useRef<AbortController | undefined>(undefined)

  useEffect(() => () => controller.current?.abort(), [])

  const run = useCallback(
    async (body: Body, apiKey: string | null) => {
      if (controller.current) return
      const abort = new AbortController()
      controller.current = abort
      let partial: T | undefined
      setState({ status: 'running', body })
      try {
        const data = await start(
          body,
          apiKey,
          (next) => {
            partial = next
            if (!abort.signal.aborted) setState({ status: 'running', body, partial: next })
          },
          abort.signal,
        )
        setState({ status: 'done', answer: { data, rateLimit: undefined }, body })
      } catch (error) {
        if (abort.signal.aborted) setState({ status: 'cancelled', body, partial })
        else setState({ status: 'failed', failure: streamFailure(error), body, partial })
      } finally {
        controller.current = undefined
      }
    },
    [start],
  )

  const cancel = useCallback(() => controller.current?.abort(), [])
  return { state, run, cancel }
}
