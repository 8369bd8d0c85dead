import { useLingui } from '@lingui/react/macro'
import { Monitor, Moon, Sun } from 'lucide-react'
import { updateSettings, useUserStore, type DarkMode } from '~/lib/settings'

const next: Record<string, DarkMode> = { auto: false, false: true, true: 'auto' }

/** Cycles the dark-mode setting: auto (follow the system) → light → dark. */
export function ThemeToggle() {
  const { t } = useLingui()
  const mode = useUserStore().settings.darkMode
  const label = mode === 'auto' ? t`Theme: system` : mode ? t`Theme: dark` : t`Theme: light`
  const Icon = mode === 'auto' ? Monitor : mode ? Moon : Sun
  return (
    <button
      type="button"
      data-client-state
      onClick={() => updateSettings({ darkMode: next[String(mode)] })}
      aria-label={label}
      title={label}
      className="inline-flex size-9 items-center justify-center rounded-md text-foreground/80 hover:bg-accent hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none"
    >
      <Icon aria-hidden className="size-4" />
    </button>
  )
}
