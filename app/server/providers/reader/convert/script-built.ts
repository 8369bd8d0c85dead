import type { HtmlDocument, HtmlElement } from './html-document'

/**
 * Below this many characters of visible text, a page that runs scripts most likely writes its text with them
 * (the original reader renders every page in a browser; this one renders those that need it).
 */
export const SCRIPT_BUILT_BELOW = 200

/** With a `<noscript>` asking for JavaScript, a page this short is still taken as written by its script. */
const NOSCRIPT_SHORT_BELOW = 1000

/** Where single-page apps mount what they render: React, Vue, Next, Nuxt, Gatsby, Svelte, Angular. */
const mountPoints = '#root, #app, #__next, #__nuxt, #___gatsby, #svelte, [data-reactroot], [ng-app], app-root'

/** What a mount point holds before its script ran: nothing, or a line saying the page is on its way. */
const placeholder =
  /^(loading|please wait|one moment|just a moment|chargement|wird geladen|cargando|読み込み中)|^[\s.…]*$/i
const PLACEHOLDER_MAX = 60

/** A `<noscript>` saying the page needs JavaScript (not the tracking pixels most of them hold). */
const asksForJavaScript = /javascript/i

/** Script types a browser runs (JSON-LD, import maps and templates are data). */
const executable = (type: string | null) =>
  type === null || type.trim() === '' || /^(module|(text|application)\/(java|ecma)script)$/i.test(type.trim())

/** What a script-free page would show: `textContent` once scripts, styles and `<noscript>` are gone. */
const visibleText = (element: HtmlElement) => (element.textContent ?? '').replace(/\s+/g, ' ').trim()

/** What was seen before the inert elements were removed (they are gone once the text can be measured). */
export interface ScriptSigns {
  scripts: boolean
  noscriptAsks: boolean
}

/** Read before `removeInert`: whether the page runs scripts, and whether its `<noscript>` asks for JavaScript. */
export function scriptSignsOf(document: HtmlDocument): ScriptSigns {
  const scripts = [...document.querySelectorAll('script')].some(
    (script) => script.hasAttribute('src') || executable(script.getAttribute('type')),
  )
  const noscriptAsks = [...document.querySelectorAll('noscript')].some((element) =>
    asksForJavaScript.test(element.textContent ?? ''),
  )
  return { scripts, noscriptAsks }
}

/**
 * Whether a page read without a browser most likely lacks the text its scripts write, judged after the inert
 * elements were removed: it runs scripts, and its visible text is short, or an app's mount point is empty or
 * holds only a "Loading…" line, or its `<noscript>` asks for JavaScript and what is left is short. A page
 * that runs no script is what it is: a browser would show the same.
 */
export function looksScriptBuilt(document: HtmlDocument, signs: ScriptSigns): boolean {
  if (!signs.scripts) return false
  const body = (document.body ?? document.documentElement) as HtmlElement
  const length = visibleText(body).length
  if (length < SCRIPT_BUILT_BELOW) return true
  for (const mount of document.querySelectorAll(mountPoints)) {
    const text = visibleText(mount)
    if (text.length <= PLACEHOLDER_MAX && placeholder.test(text)) return true
  }
  return signs.noscriptAsks && length < NOSCRIPT_SHORT_BELOW
}
