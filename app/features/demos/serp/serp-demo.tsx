import { Trans, useLingui } from '@lingui/react/macro'
import { Input } from '~/components/ui/input'
import { FormField } from '~/components/form/form-field'
import { deepSearchStream, type DeepSearchBody } from '../lib/deepsearch-stream'
import { useDemoMessages } from '../lib/demo-messages'
import { useExampleForm } from '../lib/use-example-form'
import { useStreamRun } from '../lib/use-stream-run'
import { DemoFrame } from '../parts/demo-frame'
import { ExamplePicker } from '../parts/example-picker'
import { serpExamples } from './serp-examples'
import { SerpResult } from './serp-result'

/** A search box whose results page deep search composes: an overview with citations, and the sources as results. */
export function SerpDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const form = useExampleForm(serpExamples)
  const { values, change } = form
  const { state, run, cancel } = useStreamRun(deepSearchStream)
  const body: DeepSearchBody = {
    model: 'deepsearch-v1',
    messages: [{ role: 'user', content: values.query.trim() }],
    stream: true,
    reasoning_effort: 'medium',
  }

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="serp"
      path="/v1/chat/completions"
      body={body}
      curlHeaders={{ Accept: 'text/event-stream' }}
      problem={body.messages[0].content ? undefined : t`Write what to search for.`}
      requiresKey
      state={state}
      run={run}
      cancel={cancel}
      examples={<ExamplePicker examples={serpExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <FormField id="serp-query" label={<Trans>Search</Trans>}>
          {(field) => (
            <Input {...field} type="search" value={values.query} onChange={(e) => change({ query: e.target.value })} />
          )}
        </FormField>
      }
      result={(view, _sent, live) => <SerpResult view={view} live={live} />}
      meta={(view) => ({ model: 'deepsearch-v1', tokens: view.usage?.total_tokens ?? 0 })}
    />
  )
}
