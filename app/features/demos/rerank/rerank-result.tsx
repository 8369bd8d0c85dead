import { Trans, useLingui } from '@lingui/react/macro'
import type { RerankAnswer } from '~/contracts/search'
import { ScoreBar } from '../parts/score-bar'

/** The documents best first, each with its relevance score as a bar and its place in the request. */
export function RerankResult({ data, documents }: { data: RerankAnswer; documents: string[] }) {
  const { i18n, t } = useLingui()
  const results = [...data.results].sort((a, b) => b.relevance_score - a.relevance_score)
  return (
    <ol data-testid="rerank-results" className="flex flex-col gap-4">
      {results.map((result, rank) => {
        const text = result.document?.text ?? documents[result.index] ?? ''
        const score = i18n.number(result.relevance_score, { maximumFractionDigits: 3, minimumFractionDigits: 3 })
        const position = result.index + 1
        return (
          <li key={result.index} data-index={result.index} className="flex min-w-0 flex-col gap-1.5">
            <div className="flex items-baseline justify-between gap-3 text-sm">
              <p className="min-w-0 break-words">
                <span className="mr-2 font-semibold">{rank + 1}.</span>
                {text}
              </p>
              <span className="shrink-0 font-mono text-xs tabular-nums">{score}</span>
            </div>
            <ScoreBar value={result.relevance_score} label={t`Relevance of document ${position}`} valueText={score} />
            <p className="text-xs text-muted-foreground">
              <Trans>Document {position} of the request</Trans>
            </p>
          </li>
        )
      })}
    </ol>
  )
}
