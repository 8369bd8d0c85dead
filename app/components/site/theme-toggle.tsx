import { useLingui } from '@lingui/react/macro'
import { Check, Monitor, Moon, Sun } from 'lucide-react'
import { updateSettings, useUserStore, type DarkMode } from '~/lib/settings'
import { DisclosureMenu } from './disclosure-menu'

const icons = { auto: Monitor, false: Sun, true: Moon } as const

/**
 * Spec §4's dark mode as three named choices: light, dark, or system (follow the system preference). A cycling
 * button would first switch "system" to the theme the system already shows, a click that changes nothing.
 */
export function ThemeToggle() {
  const { t } = useLingui()
  const mode = useUserStore().settings.darkMode
  const choices: { value: DarkMode; label: string }[] = [
    { value: false, label: t`Light` },
    { value: true, label: t`Dark` },
    { value: 'auto', label: t`System` },
  ]
  const current = mode === 'auto' ? t`Theme: system` : mode ? t`Theme: dark` : t`Theme: light`
  const Icon = icons[String(mode) as keyof typeof icons]
  return (
    <DisclosureMenu
      label={<span className="sr-only">{current}</span>}
      icon={
        // The stored choice is only known in the browser: hidden until mount, so the server's guess never flashes.
        <span data-client-state className="inline-flex">
          <Icon aria-hidden className="size-4" />
        </span>
      }
      align="end"
      buttonClassName="px-2"
    >
      <p className="px-2 pb-1 text-xs text-muted-foreground">{t`Theme`}</p>
      <ul className="grid gap-1">
        {choices.map((choice) => {
          const ChoiceIcon = icons[String(choice.value) as keyof typeof icons]
          return (
            <li key={String(choice.value)}>
              <button
                type="button"
                aria-pressed={choice.value === mode}
                onClick={() => updateSettings({ darkMode: choice.value })}
                className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none aria-pressed:font-semibold aria-pressed:text-primary"
              >
                <ChoiceIcon aria-hidden className="size-4" />
                <span className="flex-1">{choice.label}</span>
                {choice.value === mode && <Check aria-hidden className="size-4" />}
              </button>
            </li>
          )
        })}
      </ul>
    </DisclosureMenu>
  )
}
