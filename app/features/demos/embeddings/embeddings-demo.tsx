import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { embeddingsAnswer, embeddingTasks } from '~/contracts/search'
import { useDemoMessages } from '../lib/demo-messages'
import { useDemoRun } from '../lib/use-demo-run'
import { useExampleForm } from '../lib/use-example-form'
import { DemoFrame } from '../parts/demo-frame'
import { DemoTextarea } from '../parts/demo-textarea'
import { ExamplePicker } from '../parts/example-picker'
import { Select } from '~/components/form/select-field'
import { dimensionChoices, embeddingsExamples } from './embeddings-examples'
import { embeddingsRequest, type EmbeddingsAnswer, type EmbeddingsBody } from './embeddings-request'
import { EmbeddingsResult } from './embeddings-result'

/** Embeds a few texts and compares them, so the vectors mean something on screen. */
export function EmbeddingsDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const form = useExampleForm(embeddingsExamples)
  const { values, change } = form
  const { state, run } = useDemoRun<EmbeddingsBody, EmbeddingsAnswer>('/v1/embeddings', embeddingsAnswer)
  const body = embeddingsRequest(values)

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="embeddings"
      path="/v1/embeddings"
      body={body}
      problem={body.input.length === 0 ? t`Write at least one text to embed.` : undefined}
      requiresKey
      state={state}
      run={run}
      examples={<ExamplePicker examples={embeddingsExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <>
          <FormField id="embeddings-input" label={<Trans>Texts, one per line</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.input}
                onChange={(e) => change({ input: e.target.value })}
                rows={5}
              />
            )}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="embeddings-task" label={<Trans>Task</Trans>}>
              {(field) => (
                <Select
                  {...field}
                  value={values.task}
                  onChange={(e) => change({ task: e.target.value as typeof values.task })}
                >
                  <option value="">{t`Not set`}</option>
                  {embeddingTasks.map((task) => (
                    <option key={task} value={task}>
                      {task}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField id="embeddings-dimensions" label={<Trans>Dimensions</Trans>}>
              {(field) => (
                <Select {...field} value={values.dimensions} onChange={(e) => change({ dimensions: e.target.value })}>
                  {dimensionChoices.map((choice) => (
                    <option key={choice} value={choice}>
                      {choice || t`Full`}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
          </div>
        </>
      }
      result={(data, sent) => <EmbeddingsResult data={data} texts={sent.input} />}
      meta={(data) => ({ model: data.model, tokens: data.usage.total_tokens })}
    />
  )
}
