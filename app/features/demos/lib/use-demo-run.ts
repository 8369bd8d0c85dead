import { useCallback, useEffect, useRef, useState } from 'react'
import type * as v from 'valibot'
import { callDemoApi, DemoCallError, type DemoAnswer, type DemoPath } from './call-api'
import type { DemoFailure } from './failure'

/**
 * A demo call's state. `body` is what was sent: the answer is read against it, not against a form edited
 * since. A streamed answer shows its `partial` data while it runs, and keeps it when it fails or is cancelled.
 */
export type RunState<Body, T> =
  | { status: 'idle' }
  | { status: 'running'; body?: Body; partial?: T }
  | { status: 'done'; answer: DemoAnswer<T>; body: Body }
  | { status: 'failed'; failure: DemoFailure; body?: Body; partial?: T }
  | { status: 'cancelled'; body: Body; partial?: T }

/**
 * One demo's calls: a second Run while one is in flight is ignored (the button is disabled too, but a
 * double click or Enter can be faster than a render), and leaving the page aborts the call.
 */
export function useDemoRun<Body, T>(path: DemoPath, answer: v.GenericSchema<unknown, T>) {
  const [state, setState] = useState<RunState<Body, T>>({ status: 'idle' })
  const inFlight = useRef(false)
  const controller = useRef<AbortController | undefined>(undefined)

  useEffect(() => () => controller.current?.abort(), [])

  const run = useCallback(
    async (body: Body, apiKey: string | null) => {
      if (inFlight.current) return
      inFlight.current = true
      const abort = new AbortController()
      controller.current = abort
      setState({ status: 'running' })
      try {
        setState({
          status: 'done',
          answer: await callDemoApi(path, body, apiKey, answer, { signal: abort.signal }),
          body,
        })
      } catch (error) {
        if (abort.signal.aborted) return
        const failure: DemoFailure =
          error instanceof DemoCallError ? error.failure : { kind: 'other', message: String(error) }
        setState({ status: 'failed', failure })
      } finally {
        inFlight.current = false
      }
    },
    [path, answer],
  )

  return { state, run }
}
