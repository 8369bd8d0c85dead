import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { classifyAnswer } from '~/contracts/search'
import { useDemoMessages } from '../lib/demo-messages'
import { useDemoRun } from '../lib/use-demo-run'
import { useExampleForm } from '../lib/use-example-form'
import { DemoFrame } from '../parts/demo-frame'
import { DemoTextarea } from '../parts/demo-textarea'
import { ExamplePicker } from '../parts/example-picker'
import { classifyExamples } from './classify-examples'
import { classifyRequest, type ClassifyAnswer, type ClassifyBody } from './classify-request'
import { ClassifyResult } from './classify-result'

/** Zero-shot classification: texts sorted into labels named on the spot, no training. */
export function ClassifyDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const form = useExampleForm(classifyExamples)
  const { values, change } = form
  const { state, run } = useDemoRun<ClassifyBody, ClassifyAnswer>('/v1/classify', classifyAnswer)
  const body = classifyRequest(values)
  const { input, labels } = body
  const problem =
    input.length === 0
      ? t`Write at least one text to classify.`
      : labels.length < 2
        ? t`Give at least two labels.`
        : new Set(labels).size !== labels.length
          ? t`Each label may appear only once.`
          : undefined

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="classify"
      path="/v1/classify"
      body={body}
      problem={problem}
      requiresKey
      state={state}
      run={run}
      examples={<ExamplePicker examples={classifyExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <FormField id="classify-input" label={<Trans>Texts, one per line</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.input}
                onChange={(e) => change({ input: e.target.value })}
                rows={5}
              />
            )}
          </FormField>
          <FormField id="classify-labels" label={<Trans>Labels, one per line</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.labels}
                onChange={(e) => change({ labels: e.target.value })}
                rows={5}
              />
            )}
          </FormField>
        </div>
      }
      result={(data, sent) => <ClassifyResult data={data} texts={sent.input} />}
      meta={(data) => ({ tokens: data.usage.total_tokens })}
    />
  )
}
