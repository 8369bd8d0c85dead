import { useLingui } from '@lingui/react'
import { Trans } from '@lingui/react/macro'
import { Info } from 'lucide-react'
import { useEffect, useState } from 'react'
import type { Model } from '#content/schemas'
import { engineFigures, isMeasuredEngine } from './engine-figures'

type Serving = { served: boolean; engine: string | null } | undefined

/**
 * What to send to use this model through the search APIs (its API id, and the aliases client libraries send),
 * and whether this server serves it and with what engine. The page is prerendered, and the serving
 * configuration is the running server's, so the status is read from `GET /v1/models/{id}` once the page runs;
 * until then (or without JavaScript) the line links to that answer. A local engine's measured quality and
 * speed on this site's evaluation set follow (./engine-figures.ts).
 */
export function ServedByNote({ model }: { model: Model }) {
  const [serving, setServing] = useState<Serving>()
  const id = model.slug
  useEffect(() => {
    const controller = new AbortController()
    fetch(`/v1/models/${encodeURIComponent(id)}`, { signal: controller.signal })
      .then((response) => (response.ok ? (response.json() as Promise<Serving>) : undefined))
      .then((answer) => answer && setServing({ served: answer.served, engine: answer.engine }))
      .catch(() => undefined)
    return () => controller.abort()
  }, [id])
  if (!model.api) return null
  const aliases = model.api.aliases.join(', ')
  const engine = serving?.engine ?? ''
  return (
    <div className="flex gap-2 rounded-lg border bg-muted/40 p-3 text-sm text-muted-foreground">
      <Info aria-hidden className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 space-y-1 break-words">
        <p>
          <Trans>
            API id to send as <code>model</code>: <code className="font-semibold text-foreground">{id}</code>
          </Trans>
          {aliases && (
            <>
              {' '}
              <Trans>
                (also accepted: <code>{aliases}</code>)
              </Trans>
            </>
          )}
        </p>
        <p data-testid="served-status" data-served={serving ? String(serving.served) : undefined}>
          {!serving ? (
            <Trans>
              Whether this server serves it, and with what engine:{' '}
              <a href={`/v1/models/${id}`} className="text-primary underline-offset-4 hover:underline">
                /v1/models/{id}
              </a>
            </Trans>
          ) : serving.served ? (
            <Trans>
              This server serves it with the <code>{engine}</code> engine; its answers name it in the X-Engine header.
            </Trans>
          ) : (
            <Trans>This server does not serve it: requests naming it are refused with 422.</Trans>
          )}
        </p>
        {serving?.served && isMeasuredEngine(serving.engine) && (
          <EngineFigures engine={serving.engine} reranks={!model.api.capabilities.includes('embeddings')} />
        )}
      </div>
    </div>
  )
}

/** The serving engine's scores on the evaluation set: its reranker's for a reranking model, else its embeddings'. */
function EngineFigures({ engine, reranks }: { engine: keyof typeof engineFigures; reranks: boolean }) {
  const { i18n } = useLingui()
  const figures = engineFigures[engine]
  const score = (value: number) => i18n.number(value, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  const { en, de, fr } = reranks ? figures.reranker : figures.embeddings
  const [english, german, french] = [score(en), score(de), score(fr)]
  const paraphrases = i18n.number(figures.paraphrase, { style: 'percent' })
  const rate = i18n.number(figures.textsPerSecond)
  return (
    <p data-testid="engine-figures">
      {reranks ? (
        <Trans>
          On this site's own evaluation set, the <code>{engine}</code> engine reranks with nDCG@10 {english} in English,{' '}
          {german} in German and {french} in French.
        </Trans>
      ) : (
        <Trans>
          On this site's own evaluation set, the <code>{engine}</code> engine retrieves with nDCG@10 {english} in
          English, {german} in German and {french} in French, matches {paraphrases} of English paraphrases, and embeds{' '}
          {rate} texts a second on one core.
        </Trans>
      )}
    </p>
  )
}
