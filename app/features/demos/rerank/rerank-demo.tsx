import { Trans, useLingui } from '@lingui/react/macro'
import { Input } from '~/components/ui/input'
import { FormField } from '~/components/form/form-field'
import { rerankAnswer } from '~/contracts/search'
import { useDemoMessages } from '../lib/demo-messages'
import { useDemoRun } from '../lib/use-demo-run'
import { useExampleForm } from '../lib/use-example-form'
import { DemoFrame } from '../parts/demo-frame'
import { DemoTextarea } from '../parts/demo-textarea'
import { ExamplePicker } from '../parts/example-picker'
import { Select } from '~/components/form/select-field'
import { rerankExamples } from './rerank-examples'
import { rerankRequest, type RerankAnswer, type RerankBody } from './rerank-request'
import { RerankResult } from './rerank-result'

/** Scores candidate documents against a query and shows them best first. */
export function RerankDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const form = useExampleForm(rerankExamples)
  const { values, change } = form
  const { state, run } = useDemoRun<RerankBody, RerankAnswer>('/v1/rerank', rerankAnswer)
  const body = rerankRequest(values)
  const problem = !body.query
    ? t`Write a query.`
    : body.documents.length === 0
      ? t`Write at least one document.`
      : undefined

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="rerank"
      path="/v1/rerank"
      body={body}
      problem={problem}
      requiresKey
      state={state}
      run={run}
      examples={<ExamplePicker examples={rerankExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <>
          <FormField id="rerank-query" label={<Trans>Query</Trans>}>
            {(field) => <Input {...field} value={values.query} onChange={(e) => change({ query: e.target.value })} />}
          </FormField>
          <FormField id="rerank-documents" label={<Trans>Documents, one per line</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.documents}
                onChange={(e) => change({ documents: e.target.value })}
                rows={5}
              />
            )}
          </FormField>
          <FormField id="rerank-top-n" label={<Trans>Results to return</Trans>}>
            {(field) => (
              <Select
                {...field}
                className="sm:max-w-48"
                value={values.topN}
                onChange={(e) => change({ topN: e.target.value })}
              >
                <option value="">{t`All`}</option>
                {[1, 2, 3, 5].map((n) => (
                  <option key={n} value={String(n)}>
                    {n}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
        </>
      }
      result={(data, sent) => <RerankResult data={data} documents={sent.documents} />}
      meta={(data) => ({ model: data.model, tokens: data.usage.total_tokens })}
    />
  )
}
