import { Trans, useLingui } from '@lingui/react/macro'
import type { ClassifyAnswer } from '~/contracts/search'
import { Badge } from '~/components/ui/badge'
import { ScoreBar } from '../parts/score-bar'

/** Per text: the predicted label, then every label's score as a bar, highest first. */
export function ClassifyResult({ data, texts }: { data: ClassifyAnswer; texts: string[] }) {
  const { i18n } = useLingui()
  const score = (x: number) => i18n.number(x, { minimumFractionDigits: 3, maximumFractionDigits: 3 })
  const items = [...data.data].sort((a, b) => a.index - b.index)
  return (
    <ol data-testid="classify-results" className="flex flex-col gap-5">
      {items.map((item) => (
        <li key={item.index} className="flex min-w-0 flex-col gap-2">
          <p className="text-sm break-words">{texts[item.index]}</p>
          <p className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
            <Trans>Prediction</Trans>
            <Badge variant="default" data-testid="classify-prediction">
              {item.prediction}
            </Badge>
            <span className="font-mono tabular-nums">{score(item.score)}</span>
          </p>
          <ul className="flex flex-col gap-1.5">
            {[...item.predictions]
              .sort((a, b) => b.score - a.score)
              .map((prediction) => {
                const value = score(prediction.score)
                const label = prediction.label
                return (
                  <li key={label} className="grid grid-cols-[minmax(0,7rem)_1fr_3.5rem] items-center gap-2 text-xs">
                    <span className="truncate" title={label}>
                      {label}
                    </span>
                    <ScoreBar value={prediction.score} label={label} valueText={value} />
                    <span className="text-right font-mono tabular-nums">{value}</span>
                  </li>
                )
              })}
          </ul>
        </li>
      ))}
    </ol>
  )
}
