import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { GraduationCapIcon } from 'lucide-react'
import { useId, useState, type ChangeEvent, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { searchLimits } from '~/contracts/search'
import { Select } from '~/components/form/select-field'
import { notify } from '../notify'
import { modelsQuery } from '../queries'
import { defaultModelOf } from '../default-model'
import { exampleLines, parseExampleLines, parseExampleTable } from './examples'
import { classifiersQuery, trainMutation } from './queries'
import { useExamplesProblem } from './use-examples-problem'

const NEW = ''

export function TrainCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const describe = useExamplesProblem()
  const ids = {
    target: useId(),
    name: useId(),
    model: useId(),
    access: useId(),
    iters: useId(),
    examples: useId(),
    file: useId(),
    error: useId(),
  }
  const queryClient = useQueryClient()
  const models = useQuery(modelsQuery(['embeddings']))
  const existing = useQuery(classifiersQuery(apiKey))
  const train = useMutation(trainMutation(queryClient))
  const [target, setTarget] = useState(NEW)
  const [model, setModel] = useState('')
  // The API's default for classifying, as the bulk form starts on its default for embedding.
  const defaultModel = defaultModelOf(models.data, 'classify')
  const [access, setAccess] = useState<'private' | 'public'>('private')
  const [iterations, setIterations] = useState('10')
  const [name, setName] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState<string>()

  const loadFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0]
    if (!file) return
    const content = await file.text()
    const parsed = /\.tsv$/i.test(file.name)
      ? parseExampleTable(content, '\t')
      : /\.csv$/i.test(file.name)
        ? parseExampleTable(content, ',')
        : parseExampleLines(content)
    if (!parsed.ok) return setError(describe(parsed.problem))
    setError(undefined)
    setText(exampleLines(parsed.examples))
  }

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = parseExampleLines(text)
    if (!parsed.ok) return setError(describe(parsed.problem))
    const iters = Number(iterations)
    if (!Number.isInteger(iters) || iters < 1 || iters > searchLimits.maxNumIters)
      return setError(t`Training passes must be a whole number from 1 to ${searchLimits.maxNumIters}.`)
    setError(undefined)
    const chosenModel = model || defaultModel?.slug
    const request =
      target === NEW
        ? { model: chosenModel, name: name.trim() || null, access, num_iters: iters, input: parsed.examples }
        : { classifier_id: target, num_iters: iters, input: parsed.examples }
    train.mutate(
      { apiKey, request },
      {
        onSuccess: (answer) => {
          notify.success(t`Trained on ${answer.num_samples} examples (${answer.usage.total_tokens} tokens).`)
          setText('')
          setName('')
        },
        onError: (failure) => setError(failure.message),
      },
    )
  }

  return (
    <Card aria-labelledby="train-title">
      <CardHeader>
        <CardTitle id="train-title">
          <Trans>Train a classifier</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>
            Paste examples, one per line as "label: text", or load a CSV or TSV file with "text" and "label" columns. Up
            to {searchLimits.maxInputs} examples at once; training is charged per token of the examples.
          </Trans>
        </CardDescription>
      </CardHeader>
      <form onSubmit={submit} noValidate className="contents">
        <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <FormField id={ids.target} label={<Trans>Classifier</Trans>}>
            {(field) => (
              <Select {...field} value={target} onChange={(e) => setTarget(e.target.value)} data-testid="train-target">
                <option value={NEW}>{t`A new classifier`}</option>
                {(existing.data ?? []).map((item) => (
                  <option key={item.classifier_id} value={item.classifier_id}>
                    {t`Train further: ${item.name ?? item.labels.join(', ')}`}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          {target === NEW ? (
            <>
              <FormField id={ids.name} label={<Trans>Name (optional)</Trans>}>
                {(field) => (
                  <Input
                    {...field}
                    value={name}
                    maxLength={60}
                    placeholder={t`e.g. support tickets`}
                    onChange={(e) => setName(e.target.value)}
                    data-testid="classifier-name-input"
                  />
                )}
              </FormField>
              <FormField id={ids.model} label={<Trans>Model</Trans>}>
                {(field) => (
                  <Select
                    {...field}
                    value={model || defaultModel?.slug || ''}
                    onChange={(e) => setModel(e.target.value)}
                    data-testid="train-model"
                  >
                    {(models.data ?? []).map((m) => (
                      <option key={m.slug} value={m.slug}>
                        {m.name}
                      </option>
                    ))}
                  </Select>
                )}
              </FormField>
              <FormField id={ids.access} label={<Trans>Access</Trans>}>
                {(field) => (
                  <Select {...field} value={access} onChange={(e) => setAccess(e.target.value as 'private' | 'public')}>
                    <option value="private">{t`Private: only this key`}</option>
                    <option value="public">{t`Public: any key may use it`}</option>
                  </Select>
                )}
              </FormField>
            </>
          ) : null}
          <FormField id={ids.iters} label={<Trans>Training passes</Trans>}>
            {(field) => (
              <Input
                {...field}
                type="number"
                min={1}
                max={searchLimits.maxNumIters}
                inputMode="numeric"
                value={iterations}
                onChange={(e) => setIterations(e.target.value)}
              />
            )}
          </FormField>
          <FormField id={ids.examples} label={<Trans>Examples</Trans>} className="sm:col-span-2">
            {(field) => (
              <Textarea
                {...field}
                value={text}
                onChange={(e) => setText(e.target.value)}
                placeholder={t`billing: I was charged twice this month`}
                aria-describedby={error ? ids.error : undefined}
                aria-invalid={error ? true : undefined}
                data-testid="train-examples"
              />
            )}
          </FormField>
          <FormField id={ids.file} label={<Trans>Or load examples from a file</Trans>} className="sm:col-span-2">
            {(field) => (
              <input
                {...field}
                type="file"
                accept=".csv,.tsv,.txt"
                onChange={loadFile}
                className="text-sm file:mr-3 file:rounded file:border-0 file:bg-muted file:px-2 file:py-1"
              />
            )}
          </FormField>
          {error && (
            <p id={ids.error} role="alert" className="text-sm text-destructive sm:col-span-2" data-testid="train-error">
              {error}
            </p>
          )}
        </CardContent>
        <CardFooter>
          {/* A new classifier needs a model: until the list arrives, a click would train without one. */}
          <Button type="submit" disabled={train.isPending || (target === NEW && models.isPending)} data-testid="train">
            <GraduationCapIcon aria-hidden="true" />
            <Trans>Train</Trans>
          </Button>
        </CardFooter>
      </form>
    </Card>
  )
}
