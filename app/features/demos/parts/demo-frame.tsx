import { Trans } from '@lingui/react/macro'
import { LoaderCircle, Play, Square } from 'lucide-react'
import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react'
import { Button } from '~/components/ui/button'
import { revealElement } from '../lib/reveal'
import { useApiKey } from '~/lib/use-api-key'
import { useUserStore } from '~/lib/settings'
import { cn } from '~/lib/utils'
import { demoLayout, panelHeights, type DemoName } from '../demo-layout'
import type { DemoPath } from '../lib/call-api'
import type { RunState } from '../lib/use-demo-run'
import { AnswerMeta } from './answer-meta'
import { CurlBlock } from './curl-block'
import { FailureMessage } from './failure-message'
import { IssuedKeyNotice, KeyOffer } from './key-offer'
import { KeyLine } from './key-line'
import type { IssuedKey } from './trial-key-offer'

export interface DemoFrameProps<Body, T> {
  name: DemoName
  /** The server's PUBLIC_API_BASE_URL, for the curl. */
  apiBaseUrl: string
  path: DemoPath
  /** The JSON body the form stands for: what Run sends and the curl shows. */
  body: Body
  /** Why the form cannot be sent as it is (already translated); Run stays disabled while there is one. */
  problem?: string
  requiresKey: boolean
  examples: ReactNode
  fields: ReactNode
  state: RunState<Body, T>
  run: (body: Body, apiKey: string | null) => void
  /** A streaming demo stops its call with this; Cancel shows while it runs. */
  cancel?: () => void
  /** Headers the curl sends besides the key (the reader's options, `Accept` of a stream). */
  curlHeaders?: Record<string, string>
  /** `live` while the answer is still streaming in. */
  result: (data: T, sent: Body, live: boolean) => ReactNode
  meta: (data: T) => { model?: string; tokens: number; charged?: boolean }
}

/**
 * What every demo shares: examples and fields on the left, the key and Run below them, the answer on the
 * right, the equivalent curl underneath. With the enableAutoAPIRequest setting on, the first example runs
 * once as soon as a key is known (or at once, when the API needs none); otherwise nothing is sent unasked.
 */
export function DemoFrame<Body, T>(props: DemoFrameProps<Body, T>) {
  const { name, path, body, problem, requiresKey, state, run } = props
  const { apiKey, ready } = useApiKey()
  const { settings } = useUserStore()
  const canRun = ready && (!requiresKey || Boolean(apiKey)) && !problem
  const running = state.status === 'running'
  const partial =
    state.status === 'running' || state.status === 'failed' || state.status === 'cancelled' ? state : undefined
  const autoRan = useRef(false)
  const [issued, setIssued] = useState<IssuedKey>()
  const answerPanel = useRef<HTMLDivElement>(null)
  // Set by the visitor's Run: only then is the answer worth moving the page for (an automatic run is not).
  const revealAnswer = useRef(false)

  // On a phone the answer panel is below the form, often below the fold: bring it into view as the call
  // starts (the visitor sees it waiting) and again when it ends, in case the page moved meanwhile.
  useEffect(() => {
    if (!revealAnswer.current || state.status === 'idle' || !answerPanel.current) return
    revealElement(answerPanel.current)
    if (state.status !== 'running') revealAnswer.current = false
  }, [state.status])

  useEffect(() => {
    if (!settings.enableAutoAPIRequest || autoRan.current || !canRun) return
    autoRan.current = true
    run(body, apiKey)
  }, [settings.enableAutoAPIRequest, canRun, run, body, apiKey])

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!canRun || running) return
    revealAnswer.current = true
    run(body, apiKey)
  }

  return (
    <div data-testid={`demo-${name}`} className="flex flex-col gap-6">
      <div className={demoLayout.grid}>
        <form onSubmit={submit} className={cn(demoLayout.panel, panelHeights[name].form)}>
          {props.examples}
          {props.fields}
          <KeyLine apiKey={apiKey} required={requiresKey} />
          <div className="mt-auto flex flex-wrap items-center gap-3">
            <Button type="submit" data-testid="demo-run" disabled={!canRun || running} aria-busy={running}>
              {running ? <LoaderCircle aria-hidden className="animate-spin" /> : <Play aria-hidden />}
              {running ? <Trans>Running…</Trans> : <Trans>Run</Trans>}
            </Button>
            {props.cancel && running && (
              <Button type="button" variant="outline" data-testid="demo-cancel" onClick={props.cancel}>
                <Square aria-hidden />
                <Trans>Cancel</Trans>
              </Button>
            )}
            {problem && <p className="text-sm text-muted-foreground">{problem}</p>}
          </div>
        </form>
        <div
          ref={answerPanel}
          data-testid="demo-result"
          data-status={state.status}
          aria-live="polite"
          aria-busy={running}
          className={cn(demoLayout.panel, panelHeights[name].result)}
        >
          <h3 className="text-sm font-semibold">
            <Trans>Answer</Trans>
          </h3>
          {state.status === 'idle' && (
            <>
              {issued && apiKey === issued.apiKey && <IssuedKeyNotice issued={issued} />}
              <p className="text-sm text-muted-foreground">
                <Trans>Pick an example or write your own, then press Run. The answer appears here.</Trans>
              </p>
              {ready && !apiKey && <KeyOffer required={requiresKey} onIssued={setIssued} />}
            </>
          )}
          {running && (
            <p className="flex items-center gap-2 text-sm text-muted-foreground">
              <LoaderCircle aria-hidden className="size-4 animate-spin" />
              {state.partial === undefined ? <Trans>Waiting for the API…</Trans> : <Trans>Receiving the answer…</Trans>}
            </p>
          )}
          {state.status === 'failed' && <FailureMessage failure={state.failure} />}
          {state.status === 'cancelled' && (
            <p role="status" data-testid="demo-cancelled" className="text-sm text-muted-foreground">
              <Trans>Cancelled. What arrived before is kept below.</Trans>
            </p>
          )}
          {partial?.partial !== undefined &&
            partial.body !== undefined &&
            props.result(partial.partial, partial.body, state.status === 'running')}
          {state.status === 'done' && (
            <>
              {props.result(state.answer.data, state.body, false)}
              <AnswerMeta {...props.meta(state.answer.data)} rateLimit={state.answer.rateLimit} />
            </>
          )}
        </div>
      </div>
      <CurlBlock
        apiBaseUrl={props.apiBaseUrl}
        path={path}
        body={body}
        apiKey={apiKey}
        sendsKey={requiresKey || Boolean(apiKey)}
        headers={props.curlHeaders}
        stream={Boolean(props.cancel)}
      />
    </div>
  )
}
