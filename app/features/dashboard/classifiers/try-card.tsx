import { Trans, useLingui } from '@lingui/react/macro'
import { FormField } from '~/components/form/form-field'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { TagIcon } from 'lucide-react'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { Meter } from '~/components/ui/meter'
import { Textarea } from '~/components/ui/textarea'
import { Select } from '~/components/form/select-field'
import { classifiersQuery, classifyMutation } from './queries'

export function TryCard({ apiKey }: { apiKey: string }) {
  const { t } = useLingui()
  const ids = { classifier: useId(), text: useId(), error: useId() }
  const queryClient = useQueryClient()
  const list = useQuery(classifiersQuery(apiKey))
  const run = useMutation(classifyMutation(queryClient))
  const [chosen, setChosen] = useState('')
  const [text, setText] = useState('')
  const [error, setError] = useState<string>()
  const classifierId = chosen || list.data?.[0]?.classifier_id || ''
  if (!list.data?.length) return null

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!text.trim()) return setError(t`Write a text to classify.`)
    setError(undefined)
    run.mutate(
      { apiKey, request: { classifier_id: classifierId, input: [text.trim()] } },
      { onError: (failure) => setError(failure.message) },
    )
  }
  const result = run.data?.data[0]

  return (
    <Card aria-labelledby="try-title">
      <CardHeader>
        <CardTitle id="try-title">
          <Trans>Try a classifier</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Classify a text with one of your classifiers, as POST /v1/classify does.</Trans>
        </CardDescription>
      </CardHeader>
      <form onSubmit={submit} noValidate className="contents">
        <CardContent className="flex flex-col gap-4">
          <FormField id={ids.classifier} label={<Trans>Classifier</Trans>}>
            {(field) => (
              <Select {...field} value={classifierId} onChange={(e) => setChosen(e.target.value)}>
                {list.data.map((item) => (
                  <option key={item.classifier_id} value={item.classifier_id}>
                    {item.labels.join(', ')}
                  </option>
                ))}
              </Select>
            )}
          </FormField>
          <FormField id={ids.text} label={<Trans>Text</Trans>}>
            {(field) => (
              <Textarea
                {...field}
                value={text}
                onChange={(e) => setText(e.target.value)}
                aria-describedby={error ? ids.error : undefined}
                data-testid="classify-text"
              />
            )}
          </FormField>
          {error && (
            <p id={ids.error} role="alert" className="text-sm text-destructive">
              {error}
            </p>
          )}
          {result && (
            <div className="flex flex-col gap-2" data-testid="prediction" data-label={result.prediction}>
              <p className="text-sm">
                <Trans>
                  Predicted: <strong>{result.prediction}</strong>
                </Trans>
              </p>
              <ul className="flex flex-col gap-2">
                {result.predictions.map(({ label, score }) => (
                  <li key={label} className="grid grid-cols-[minmax(0,8rem)_1fr_3rem] items-center gap-2 text-sm">
                    <span className="truncate">{label}</span>
                    <Meter value={score} max={1} aria-label={label} valueText={`${Math.round(score * 100)}%`} />
                    <span className="text-right tabular-nums">{Math.round(score * 100)}%</span>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </CardContent>
        <CardFooter>
          <Button type="submit" disabled={run.isPending} data-testid="classify">
            <TagIcon aria-hidden="true" />
            <Trans>Classify</Trans>
          </Button>
        </CardFooter>
      </form>
    </Card>
  )
}
