import { Trans, useLingui } from '@lingui/react/macro'
import { useState, type KeyboardEvent } from 'react'
import { useFormat } from '~/lib/format'
import { cn } from '~/lib/utils'
import { axisLabelIndices, niceScale } from './chart-scale'
import type { ChartRow } from './consumption-data'

const palette = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)']
const colorOf = (index: number) => palette[index % palette.length]
const percent = (part: number, whole: number) => `${whole > 0 ? (part / whole) * 100 : 0}%`

/** Where a label centred on day `index` of `n` sits, kept inside the plot at both ends. */
function anchored(index: number, n: number): React.CSSProperties {
  const centre = percent(index + 0.5, n)
  if (index < n / 4) return { left: index === 0 ? 0 : centre, transform: index === 0 ? undefined : 'translateX(-50%)' }
  if (index >= (3 * n) / 4) return index === n - 1 ? { right: 0 } : { left: centre, transform: 'translateX(-100%)' }
  return { left: centre, transform: 'translateX(-50%)' }
}

/**
 * Tokens per day, stacked by product: plain elements sized in percent, no chart library (recharts cost the
 * usage tab 88 KB and its longest tasks). A pointer over a day, or the arrow keys once the plot has focus,
 * shows that day's figures, also read out to screen readers; the table under the chart has them all.
 */
export function ConsumptionChart({ rows, products }: { rows: ChartRow[]; products: string[] }) {
  const { t } = useLingui()
  const format = useFormat()
  const [active, setActive] = useState<number | null>(null)
  const totals = rows.map((row) => products.reduce((sum, product) => sum + Number(row[product]), 0))
  const scale = niceScale(Math.max(0, ...totals))
  const labelled = new Set(axisLabelIndices(rows.length))
  const last = rows.length - 1

  const step = (event: KeyboardEvent) => {
    const moves: Record<string, (current: number) => number> = {
      ArrowLeft: (current) => Math.max(0, current - 1),
      ArrowRight: (current) => Math.min(last, current + 1),
      Home: () => 0,
      End: () => last,
    }
    const move = moves[event.key]
    if (!move) return
    event.preventDefault()
    setActive((current) => move(current ?? last))
  }
  const shown = active === null ? undefined : rows[active]

  return (
    <figure className="flex flex-col" aria-label={t`Tokens consumed per day, by product`}>
      {/* The top padding holds the half of the highest value's label that stands above the plot. */}
      <div className="flex h-64 pt-2 text-xs">
        <div className="relative mb-6 w-12 shrink-0" aria-hidden="true">
          {scale.ticks.map((tick) => (
            <span
              key={tick}
              className="absolute right-2 translate-y-1/2 text-muted-foreground tabular-nums"
              style={{ bottom: percent(tick, scale.top) }}
            >
              {format.compactTokens(tick)}
            </span>
          ))}
        </div>
        <div className="flex min-w-0 flex-1 flex-col">
          <div
            role="group"
            tabIndex={0}
            aria-label={t`Bar chart of tokens consumed per day; the arrow keys move from day to day`}
            className="relative flex-1 rounded-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
            onKeyDown={step}
            onFocus={() => setActive((current) => current ?? last)}
            onBlur={() => setActive(null)}
            onMouseLeave={() => setActive(null)}
            data-testid="consumption-chart"
          >
            {scale.ticks.map((tick) => (
              <div
                key={tick}
                aria-hidden="true"
                className="absolute inset-x-0 border-t border-border/70"
                style={{ bottom: percent(tick, scale.top) }}
              />
            ))}
            <div className="absolute inset-0 flex items-end gap-px" aria-hidden="true">
              {rows.map((row, index) => (
                <div
                  key={row.date}
                  className={cn('flex h-full min-w-0 flex-1 flex-col justify-end', index === active && 'bg-muted')}
                  onMouseEnter={() => setActive(index)}
                  data-day={row.date}
                >
                  <div
                    className="mx-auto flex w-full max-w-8 flex-col-reverse overflow-hidden rounded-t-[3px]"
                    style={{ height: percent(totals[index], scale.top) }}
                  >
                    {products.map((product, p) => (
                      <div
                        key={product}
                        style={{ height: percent(Number(row[product]), totals[index]), background: colorOf(p) }}
                      />
                    ))}
                  </div>
                </div>
              ))}
            </div>
            <div
              role="status"
              className="pointer-events-none absolute top-0 z-10"
              style={anchored(active ?? 0, rows.length)}
            >
              {shown && (
                <div className="grid min-w-32 gap-1.5 rounded-lg border bg-popover px-2.5 py-1.5 text-popover-foreground shadow-md">
                  <div className="font-medium">{format.day(shown.date)}</div>
                  {totals[active!] === 0 ? (
                    <span className="text-muted-foreground">
                      <Trans>No tokens used</Trans>
                    </span>
                  ) : (
                    products
                      .filter((product) => Number(shown[product]) > 0)
                      .map((product) => (
                        <div key={product} className="flex items-center gap-2">
                          <span
                            aria-hidden="true"
                            className="size-2.5 shrink-0 rounded-[2px]"
                            style={{ background: colorOf(products.indexOf(product)) }}
                          />
                          <span className="text-muted-foreground">{product}</span>
                          <span className="ml-auto font-mono tabular-nums">
                            {format.tokens(Number(shown[product]))}
                          </span>
                        </div>
                      ))
                  )}
                </div>
              )}
            </div>
          </div>
          <div className="relative h-6 text-muted-foreground" aria-hidden="true">
            {rows.map(
              (row, index) =>
                labelled.has(index) && (
                  <span
                    key={row.date}
                    className="absolute top-2 whitespace-nowrap"
                    style={anchored(index, rows.length)}
                  >
                    {format.axisDay(row.date)}
                  </span>
                ),
            )}
          </div>
        </div>
      </div>
      <ul className="flex flex-wrap justify-center gap-4 pt-2 text-xs">
        {products.map((product, p) => (
          <li key={product} className="flex items-center gap-1.5">
            <span aria-hidden="true" className="size-2.5 rounded-[2px]" style={{ background: colorOf(p) }} />
            {product}
          </li>
        ))}
      </ul>
    </figure>
  )
}
