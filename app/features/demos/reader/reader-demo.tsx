import { Trans, useLingui } from '@lingui/react/macro'
import { useCallback, useMemo } from 'react'
import { Input } from '~/components/ui/input'
import { useApiKey } from '~/lib/use-api-key'
import { FormField } from '~/components/form/form-field'
import { useDemoMessages } from '../lib/demo-messages'
import { useExampleForm } from '../lib/use-example-form'
import { useStreamRun } from '../lib/use-stream-run'
import { DemoFrame } from '../parts/demo-frame'
import { ExamplePicker } from '../parts/example-picker'
import { Select } from '~/components/form/select-field'
import { readerEngines, readerExamples, readerFormats, type ReaderEngine, type ReaderFormat } from './reader-examples'
import { readerHeaders, readerRequest, readStream, type ReaderBody, type ReaderSnapshot } from './reader-request'
import { ReaderResult } from './reader-result'

/** Reads a URL as an event stream: each snapshot replaces the last until the page is complete. Needs no key. */
export function ReaderDemo({ apiBaseUrl }: { apiBaseUrl: string }) {
  useDemoMessages()
  const { t } = useLingui()
  const examples = useMemo(() => readerExamples(window.location.origin), [])
  const form = useExampleForm(examples)
  const { values, change } = form
  const headers = readerHeaders(values)
  const headerKey = JSON.stringify(headers)
  const start = useCallback(
    (body: ReaderBody, apiKey: string | null, update: (page: ReaderSnapshot) => void, signal: AbortSignal) =>
      readStream(body, JSON.parse(headerKey) as Record<string, string>, apiKey, update, signal),
    [headerKey],
  )
  const { state, run, cancel } = useStreamRun(start)
  const { apiKey } = useApiKey()
  const body = readerRequest(values)
  const problem = !/^https?:\/\/\S+$/i.test(body.url) ? t`Write the http or https URL of a page.` : undefined
  const formatLabels: Record<ReaderFormat, string> = {
    content: t`Main content as Markdown`,
    markdown: t`Whole page as Markdown`,
    text: t`Plain text`,
    html: t`HTML`,
  }
  const engineLabels: Record<ReaderEngine, string> = {
    direct: t`Direct fetch of the HTML`,
    browser: t`Browser (runs the page's scripts)`,
    auto: t`Auto (the browser when needed)`,
  }
  const checkbox = (name: 'links' | 'images' | 'screenshot' | 'noCache', label: React.ReactNode) => (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        data-testid={`reader-${name}`}
        className="size-4 accent-primary"
        checked={values[name]}
        onChange={(e) => change({ [name]: e.target.checked })}
      />
      {label}
    </label>
  )

  return (
    <DemoFrame
      apiBaseUrl={apiBaseUrl}
      name="reader"
      path="/r"
      body={body}
      curlHeaders={headers}
      problem={problem}
      requiresKey={false}
      state={state}
      run={run}
      cancel={cancel}
      examples={<ExamplePicker examples={examples} selected={form.selected} onSelect={form.select} />}
      fields={
        <>
          <FormField id="reader-url" label={<Trans>URL to read</Trans>}>
            {(field) => (
              <Input
                {...field}
                type="url"
                inputMode="url"
                value={values.url}
                onChange={(e) => change({ url: e.target.value })}
              />
            )}
          </FormField>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="reader-format" label={<Trans>Return format</Trans>}>
              {(field) => (
                <Select
                  {...field}
                  value={values.format}
                  onChange={(e) => change({ format: e.target.value as ReaderFormat })}
                >
                  {readerFormats.map((format) => (
                    <option key={format} value={format}>
                      {formatLabels[format]}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
            <FormField id="reader-engine" label={<Trans>Engine</Trans>}>
              {(field) => (
                <Select
                  {...field}
                  value={values.engine}
                  onChange={(e) => change({ engine: e.target.value as ReaderEngine })}
                >
                  {readerEngines.map((engine) => (
                    <option key={engine} value={engine}>
                      {engineLabels[engine]}
                    </option>
                  ))}
                </Select>
              )}
            </FormField>
          </div>
          <div className="grid gap-2 sm:grid-cols-2">
            {checkbox('links', <Trans>Add a summary of the links</Trans>)}
            {checkbox('images', <Trans>Add a summary of the images</Trans>)}
            {checkbox('screenshot', <Trans>Take a screenshot (browser)</Trans>)}
            {checkbox('noCache', <Trans>Fetch anew, bypassing the cache</Trans>)}
          </div>
        </>
      }
      result={(page, _sent, live) => <ReaderResult page={page} live={live} />}
      meta={(page) => ({ tokens: page.usage.tokens, charged: Boolean(apiKey) })}
    />
  )
}
