import { useEffect } from 'react'
import { useUserStore, type DarkMode } from './settings'

/**
 * Applies a dark-mode setting to the document and the favicon. It is also serialised into the
 * pre-paint script, so it must stay self-contained (no imports, no closures).
 */
export function applyTheme(darkMode: boolean | 'auto') {
  const dark = darkMode === 'auto' ? window.matchMedia('(prefers-color-scheme: dark)').matches : darkMode === true
  const root = document.documentElement
  root.classList.toggle('dark', dark)
  root.style.colorScheme = dark ? 'dark' : 'light'
  const icon = document.querySelector<HTMLLinkElement>('link[rel="icon"]')
  if (icon) icon.href = dark ? '/favicon-dark.svg' : '/favicon.svg'
}

/** Runs before first paint: reads the stored setting so the first frame already has the right theme. */
export const themeScript = `(function(){var m='auto';try{var s=JSON.parse(localStorage.getItem('user')||'{}');if(s&&s.settings&&'darkMode' in s.settings)m=s.settings.darkMode}catch(e){}(${applyTheme.toString()})(m)})()`

/** Keeps the document in step with the stored setting and, on auto, with the system's changes. */
export function useThemeSync() {
  const { settings } = useUserStore()
  const mode: DarkMode = settings.darkMode
  useEffect(() => {
    applyTheme(mode)
    if (mode !== 'auto') return
    const query = window.matchMedia('(prefers-color-scheme: dark)')
    const onChange = () => applyTheme('auto')
    query.addEventListener('change', onChange)
    return () => query.removeEventListener('change', onChange)
  }, [mode])
}
