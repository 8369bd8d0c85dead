import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { deepSearchStream, type DeepSearchBody } from '../lib/deepsearch-stream'
import { useDemoMessages } from '../lib/demo-messages'
import { useExampleForm } from '../lib/use-example-form'
import { useStreamRun } from '../lib/use-stream-run'
import { DemoFrame } from '../parts/demo-frame'
import { DemoTextarea } from '../parts/demo-textarea'
import { ExamplePicker } from '../parts/example-picker'
import { Select } from '~/components/form/select-field'
import { deepSearchExamples, efforts, type Effort } from './deepsearch-examples'
import { DeepSearchResult } from './deepsearch-result'

/** Asks DeepSearch a question and streams its reasoning, then its cited answer. */
export function DeepSearchDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const form = useExampleForm(deepSearchExamples)
  const { values, change } = form
  const { state, run, cancel } = useStreamRun(deepSearchStream)
  const body: DeepSearchBody = {
    model: 'deepsearch-v1',
    messages: [{ role: 'user', content: values.question.trim() }],
    stream: true,
    reasoning_effort: values.effort,
  }
  const effortLabels: Record<Effort, string> = {
    low: t`Low: one search round`,
    medium: t`Medium: up to two rounds`,
    high: t`High: up to four rounds`,
  }

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="deepsearch"
      path="/v1/chat/completions"
      body={body}
      curlHeaders={{ Accept: 'text/event-stream' }}
      problem={body.messages[0].content ? undefined : t`Write a question.`}
      requiresKey
      state={state}
      run={run}
      cancel={cancel}
      examples={<ExamplePicker examples={deepSearchExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <>
          <FormField id="deepsearch-question" label={<Trans>Question</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.question}
                onChange={(e) => change({ question: e.target.value })}
                rows={4}
              />
            )}
          </FormField>
          <FormField id="deepsearch-effort" label={<Trans>Reasoning effort</Trans>}>
            {(field) => (
              <Select {...field} value={values.effort} onChange={(e) => change({ effort: e.target.value as Effort })}>
                {efforts.map((effort) => (
                  <option key={effort} value={effort}>
                    {effortLabels[effort]}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        </>
      }
      result={(view, _sent, live) => <DeepSearchResult view={view} live={live} />}
      meta={(view) => ({ model: 'deepsearch-v1', tokens: view.usage?.total_tokens ?? 0 })}
    />
  )
}
