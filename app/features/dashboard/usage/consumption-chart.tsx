import { useLingui } from '@lingui/react/macro'
import { Bar, BarChart, CartesianGrid, XAxis, YAxis } from 'recharts'
import {
  ChartContainer,
  ChartLegend,
  ChartTooltip,
  ChartTooltipContent,
  cssName,
  type ChartConfig,
} from '~/components/ui/chart'
import { useFormat } from '~/lib/format'
import type { ChartRow } from './consumption-data'

const palette = ['var(--chart-1)', 'var(--chart-2)', 'var(--chart-3)', 'var(--chart-4)', 'var(--chart-5)']

/** Tokens per day, stacked by product. Loaded with React.lazy: only the usage tab pulls in recharts. */
export default function ConsumptionChart({ rows, products }: { rows: ChartRow[]; products: string[] }) {
  const { t } = useLingui()
  const format = useFormat()
  const config: ChartConfig = Object.fromEntries(
    products.map((product, i) => [product, { label: product, color: palette[i % palette.length] }]),
  )
  return (
    <figure className="flex flex-col" aria-label={t`Tokens consumed per day, by product`}>
      <ChartContainer config={config} className="h-64" role="img" aria-label={t`Bar chart of tokens consumed per day`}>
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer>
          <CartesianGrid vertical={false} />
          <XAxis
            dataKey="date"
            tickLine={false}
            axisLine={false}
            tickMargin={8}
            minTickGap={24}
            tickFormatter={format.axisDay}
          />
          <YAxis
            tickLine={false}
            axisLine={false}
            width={48}
            tickFormatter={format.compactTokens}
            allowDecimals={false}
          />
          <ChartTooltip cursor content={<ChartTooltipContent formatLabel={format.day} formatValue={format.tokens} />} />
          {products.map((product, i) => (
            <Bar
              key={product}
              dataKey={product}
              stackId="tokens"
              fill={`var(--color-${cssName(product)})`}
              radius={i === products.length - 1 ? [3, 3, 0, 0] : 0}
              isAnimationActive={false}
            />
          ))}
        </BarChart>
      </ChartContainer>
      <ChartLegend config={config} />
    </figure>
  )
}
