import { Trans, useLingui } from '@lingui/react/macro'

/**
 * Cosine similarity between every pair of inputs as a table, each cell shaded by its value: the closer
 * two texts are in meaning, the darker their cell.
 */
export function SimilarityMatrix({ matrix, texts }: { matrix: number[][]; texts: string[] }) {
  const { i18n } = useLingui()
  const format = (x: number) => i18n.number(x, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
  return (
    <div className="flex min-w-0 flex-col gap-2">
      <h4 className="text-sm font-semibold">
        <Trans>Cosine similarity</Trans>
      </h4>
      <div className="overflow-x-auto">
        <table data-testid="similarity-matrix" className="border-separate border-spacing-1 text-xs">
          <thead>
            <tr>
              <td />
              {matrix.map((_, j) => (
                <th key={j} scope="col" title={texts[j]} className="px-1 font-mono font-normal text-muted-foreground">
                  #{j + 1}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {matrix.map((row, i) => (
              <tr key={i}>
                <th scope="row" title={texts[i]} className="pr-1 text-left font-mono font-normal text-muted-foreground">
                  #{i + 1}
                </th>
                {row.map((similarity, j) => (
                  <td
                    key={j}
                    data-value={similarity}
                    className="relative min-w-12 rounded px-2 py-1.5 text-center font-mono tabular-nums"
                  >
                    <span
                      aria-hidden
                      className="absolute inset-0 rounded bg-primary"
                      style={{ opacity: 0.05 + Math.max(0, similarity) * 0.35 }}
                    />
                    <span className="relative">{format(similarity)}</span>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
}
