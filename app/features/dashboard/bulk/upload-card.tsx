import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { UploadIcon } from 'lucide-react'
import { useEffect, useId, useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { fieldClass, Input } from '~/components/ui/input'
import { Meter } from '~/components/ui/meter'
import { bulkLimits } from '~/contracts/bulk'
import { cn } from '~/lib/utils'
import { Select } from '~/components/form/select-field'
import { notify } from '../notify'
import { defaultModelOf } from '../default-model'
import { modelsQuery } from '../queries'
import { useFormat } from '~/lib/format'
import { bulkJobsKey } from './queries'
import { uploadBulkFile } from './upload-file'

const readable = /\.(csv|tsv|txt|text)$/i
const mib = bulkLimits.maxFileBytes / 1024 / 1024

export function UploadCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const format = useFormat()
  const ids = { file: useId(), model: useId(), email: useId(), error: useId() }
  const queryClient = useQueryClient()
  const models = useQuery(modelsQuery(['embeddings']))
  const [file, setFile] = useState<File | null>(null)
  const [model, setModel] = useState('')
  const [email, setEmail] = useState('')
  const [error, setError] = useState<string>()
  const [sent, setSent] = useState<number | null>(null)
  const inFlight = useRef<AbortController | null>(null)
  useEffect(() => () => inFlight.current?.abort(), [])
  const defaultModel = defaultModelOf(models.data, 'embeddings')
  const chosenModel = model || defaultModel?.slug || ''

  const check = (): string | undefined => {
    if (!file) return t`Choose a file of texts to embed.`
    if (!readable.test(file.name)) return t`The file must be a .csv, .tsv or .txt file.`
    if (file.size > bulkLimits.maxFileBytes) return t`The file is larger than ${mib} MiB, the limit of one job.`
    if (!chosenModel) return t`Choose a model.`
    return undefined
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault()
    const problem = check()
    setError(problem)
    if (problem || !file) return
    const controller = new AbortController()
    inFlight.current = controller
    setSent(0)
    try {
      const job = await uploadBulkFile({
        apiKey,
        file,
        model: chosenModel,
        email: email.trim(),
        onProgress: setSent,
        signal: controller.signal,
      })
      notify.success(t`Job started: ${format.tokens(job.total_rows)} texts are waiting to be embedded.`)
      setFile(null)
      ;(event.target as HTMLFormElement).reset()
      await queryClient.invalidateQueries({ queryKey: bulkJobsKey(apiKey) })
    } catch (failure) {
      if (!(failure instanceof DOMException && failure.name === 'AbortError'))
        setError(failure instanceof Error ? failure.message : String(failure))
    } finally {
      inFlight.current = null
      setSent(null)
    }
  }

  const uploading = sent !== null
  const percent = Math.round((sent ?? 0) * 100)
  return (
    <Card aria-labelledby="bulk-upload-title">
      <CardHeader>
        <CardTitle id="bulk-upload-title">
          <Trans>New bulk embedding job</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Upload a CSV file with a "text" column (and optionally an "id" column), or a text file with one text per
            line. Up to {mib} MiB and {format.tokens(bulkLimits.maxRows)} texts; each batch is charged as it is
            embedded.
          </Trans>
        </CardDescription>
      </CardHeader>
      <form onSubmit={submit} noValidate className="contents">
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField id={ids.file} label={<Trans>File</Trans>} className="sm:col-span-2">
            {(field) => (
              <input
                {...field}
                type="file"
                accept=".csv,.tsv,.txt,text/csv,text/plain"
                data-testid="bulk-file"
                disabled={uploading}
                aria-describedby={error ? ids.error : undefined}
                onChange={(event) => setFile(event.target.files?.[0] ?? null)}
                className={cn(fieldClass, 'file:mr-3 file:rounded file:border-0 file:bg-muted file:px-2 file:text-sm')}
              />
            )}
          </FormField>
          <FormField id={ids.model} label={<Trans>Model</Trans>}>
            {(field) => (
              <Select
                {...field}
                value={chosenModel}
                disabled={uploading}
                onChange={(e) => setModel(e.target.value)}
                data-testid="bulk-model"
              >
                {(models.data ?? []).map((m) => (
                  <option key={m.slug} value={m.slug}>
                    {m.name}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField id={ids.email} label={<Trans>E-mail when done (optional)</Trans>}>
            {(field) => (
              <Input
                {...field}
                type="email"
                autoComplete="email"
                value={email}
                disabled={uploading}
                onChange={(event) => setEmail(event.target.value)}
              />
            )}
          </FormField>
          {uploading && (
            <div className="flex flex-col gap-1 sm:col-span-2" data-testid="upload-progress">
              <Meter value={percent} max={100} valueText={t`${percent}% uploaded`} aria-label={t`Upload progress`} />
              <p className="text-sm text-muted-foreground" aria-live="polite">
                <Trans>Uploading… {percent}%</Trans>
              </p>
            </div>
          )}
          {error && (
            <p
              id={ids.error}
              role="alert"
              className="text-sm text-destructive sm:col-span-2"
              data-testid="upload-error"
            >
              {error}
            </p>
          )}
        </CardContent>
        <CardFooter className="flex flex-wrap gap-2">
          {/* Until the models arrive there is nothing to choose: a click then would only be told to choose one. */}
          <Button type="submit" disabled={uploading || models.isPending} data-testid="start-bulk-job">
            <UploadIcon aria-hidden="true" />
            <Trans>Start job</Trans>
          </Button>
          {uploading && (
            <Button type="button" variant="outline" onClick={() => inFlight.current?.abort()}>
              <Trans>Cancel upload</Trans>
            </Button>
          )}
        </CardFooter>
      </form>
    </Card>
  )
}
