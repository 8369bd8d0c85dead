import * as React from 'react'
import { ResponsiveContainer, Tooltip, type TooltipContentProps } from 'recharts'
import { cn } from '~/lib/utils'

/** Series name → label and colour; the colour is exposed as `--color-<name>` for the chart's fills. */
export type ChartConfig = Record<string, { label: React.ReactNode; color: string }>

const ChartContext = React.createContext<ChartConfig | null>(null)

function useChartConfig(): ChartConfig {
  const config = React.useContext(ChartContext)
  if (!config) throw new Error('Chart parts must be used inside <ChartContainer>')
  return config
}

/** Sizes the chart to its box (give it a height) and publishes the series colours as CSS variables. */
export function ChartContainer({
  config,
  className,
  children,
  ...props
}: Omit<React.ComponentProps<'div'>, 'children'> & { config: ChartConfig; children: React.ReactElement }) {
  const colors = Object.fromEntries(
    Object.entries(config).map(([name, { color }]) => [`--color-${cssName(name)}`, color]),
  )
  return (
    <ChartContext.Provider value={config}>
      <div
        data-slot="chart"
        className={cn(
          'w-full text-xs [&_.recharts-cartesian-axis-tick_text]:fill-muted-foreground [&_.recharts-cartesian-grid_line]:stroke-border/70 [&_.recharts-rectangle.recharts-tooltip-cursor]:fill-muted',
          className,
        )}
        style={colors as React.CSSProperties}
        {...props}
      >
        <ResponsiveContainer width="100%" height="100%">
          {children}
        </ResponsiveContainer>
      </div>
    </ChartContext.Provider>
  )
}

/** A series name made safe for a CSS custom property. */
export function cssName(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, '_')
}

export const ChartTooltip = Tooltip

type Formatter = (value: number) => string

export function ChartTooltipContent({
  active,
  payload,
  label,
  formatLabel,
  formatValue = String,
}: Partial<TooltipContentProps<number, string>> & {
  formatLabel?: (label: string) => string
  formatValue?: Formatter
}) {
  const config = useChartConfig()
  if (!active || !payload?.length) return null
  return (
    <div className="grid min-w-32 gap-1.5 rounded-lg border bg-popover px-2.5 py-1.5 text-xs text-popover-foreground shadow-md">
      <div className="font-medium">{formatLabel ? formatLabel(String(label)) : label}</div>
      {payload
        .filter((item) => Number(item.value) > 0)
        .map((item) => {
          const key = String(item.dataKey ?? item.name)
          return (
            <div key={key} className="flex items-center gap-2">
              <span
                aria-hidden="true"
                className="size-2.5 shrink-0 rounded-[2px]"
                style={{ background: `var(--color-${cssName(key)})` }}
              />
              <span className="text-muted-foreground">{config[key]?.label ?? key}</span>
              <span className="ml-auto font-mono tabular-nums">{formatValue(Number(item.value))}</span>
            </div>
          )
        })}
    </div>
  )
}

/** Rendered next to the container (not inside the svg), so it wraps like text. */
export function ChartLegend({ config, className }: { config: ChartConfig; className?: string }) {
  return (
    <ul className={cn('flex flex-wrap justify-center gap-4 pt-2 text-xs', className)}>
      {Object.entries(config).map(([key, item]) => (
        <li key={key} className="flex items-center gap-1.5">
          <span aria-hidden="true" className="size-2.5 rounded-[2px]" style={{ background: item.color }} />
          {item.label}
        </li>
      ))}
    </ul>
  )
}
