import { Trans, useLingui } from '@lingui/react/macro'
import { Input } from '~/components/ui/input'
import { FormField } from '~/components/form/form-field'
import { searchLimits, segmentAnswer, tokenizers, type TokenizerName } from '~/contracts/search'

const { maxChunkLength } = searchLimits
import { useDemoMessages } from '../lib/demo-messages'
import { useDemoRun } from '../lib/use-demo-run'
import { useExampleForm } from '../lib/use-example-form'
import { DemoFrame } from '../parts/demo-frame'
import { DemoTextarea } from '../parts/demo-textarea'
import { ExamplePicker } from '../parts/example-picker'
import { Select } from '~/components/form/select-field'
import { segmentExamples } from './segment-examples'
import { chunkLength, segmentRequest, type SegmentAnswer, type SegmentBody } from './segment-request'
import { SegmentResult } from './segment-result'

/** Tokenizes the content as the models do and, when asked, splits it into chunks. Needs no key. */
export function SegmentDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t, i18n } = useLingui()
  const form = useExampleForm(segmentExamples)
  const { values, change } = form
  const { state, run } = useDemoRun<SegmentBody, SegmentAnswer>('/v1/segment', segmentAnswer)
  const chunkChars = chunkLength(values.maxChunkLength)
  const body = segmentRequest(values)
  const limit = i18n.number(maxChunkLength)
  const problem = !values.content.trim()
    ? t`Write some text to tokenize.`
    : values.chunks && chunkChars === undefined
      ? t`The maximum chunk length must be a whole number from 1 to ${limit}.`
      : undefined

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="segment"
      path="/v1/segment"
      body={body}
      problem={problem}
      requiresKey={false}
      state={state}
      run={run}
      examples={<ExamplePicker examples={segmentExamples} selected={form.selected} onSelect={form.select} />}
      fields={
        <>
          <FormField id="segment-content" label={<Trans>Text</Trans>}>
            {(field) => (
              <DemoTextarea
                {...field}
                value={values.content}
                onChange={(e) => change({ content: e.target.value })}
                rows={6}
              />
            )}
          </FormField>
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              data-testid="segment-chunks"
              className="size-4 accent-primary"
              checked={values.chunks}
              onChange={(e) => change({ chunks: e.target.checked })}
            />
            <Trans>Split into chunks</Trans>
          </label>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="segment-tokenizer" label={<Trans>Tokenizer</Trans>}>
              {(field) => (
                <Select
                  {...field}
                  value={values.tokenizer}
                  onChange={(e) => change({ tokenizer: e.target.value as TokenizerName })}
                >
                  {tokenizers.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField id="segment-max-chunk" label={<Trans>Maximum chunk length (characters)</Trans>}>
              {(field) => (
                <Input
                  {...field}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={maxChunkLength}
                  disabled={!values.chunks}
                  aria-invalid={values.chunks && chunkChars === undefined}
                  value={values.maxChunkLength}
                  onChange={(e) => change({ maxChunkLength: e.target.value })}
                />
              )}
            </FormField>
          </div>
        </>
      }
      result={(data, sent) => <SegmentResult data={data} content={sent.content} />}
      meta={(data) => ({ tokens: data.usage.tokens })}
    />
  )
}
