import { parseHTML } from 'linkedom'
import { PageNotRead } from '../../../domain/refusals'

/** The server DOM the reader converts with: linkedom's, which is fast and needs no browser. */
export type HtmlDocument = ReturnType<typeof parseHTML>['document']
export type HtmlElement = Element

/** Never content: code, styles and embedded objects. */
const inert = 'script, style, noscript, template, iframe, object, embed'

/** Parses a page (or part of one, while it downloads), with links and images made absolute against its base URL. */
export function parsePage(html: string, pageUrl: string, keepImageDataUrls = false): HtmlDocument {
  const markup = /<html[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`
  const { document } = parseHTML(markup)
  const base = baseUrlOf(document, pageUrl)
  for (const element of document.querySelectorAll('a[href], area[href]')) absolutize(element, 'href', base, true)
  for (const element of document.querySelectorAll('img[src]'))
    if (!(keepImageDataUrls && /^\s*data:image\//i.test(element.getAttribute('src') ?? '')))
      absolutize(element, 'src', base, false)
  return document
}

/** Removes what is never content, once the metadata (which may sit in JSON-LD scripts) has been read. */
export function removeInert(document: HtmlDocument): void {
  for (const element of document.querySelectorAll(inert)) element.remove()
}

/** Layers that cover a page rather than being part of it: dialogs, and what their names say they are. */
const overlayRoles = 'dialog, [role="dialog"], [role="alertdialog"], [aria-modal="true"]'
const overlayName =
  /(^|[\s_-])(overlay|modal|popup|pop-up|lightbox|backdrop|cookie|cookies|consent|gdpr|newsletter|paywall|interstitial)([\s_-]|$)/i
const coveringStyle = /(^|;)\s*position\s*:\s*(fixed|sticky)/i

/**
 * `X-Remove-Overlay`: removes what covers the page: dialogs, elements styled `position: fixed` or `sticky`,
 * and elements whose class or id names an overlay, a modal, a popup or a cookie, consent or newsletter banner.
 * An element holding the page's heading, `main` or an article is kept whatever its name: it is the page.
 */
export function removeOverlays(document: HtmlDocument): void {
  const holdsPage = (element: HtmlElement) => element.querySelector('main, article, h1') !== null
  for (const element of [...document.querySelectorAll(overlayRoles)]) if (!holdsPage(element)) element.remove()
  for (const element of [...document.querySelectorAll('body *')]) {
    if (!element.isConnected) continue
    const named = `${element.getAttribute('class') ?? ''} ${element.getAttribute('id') ?? ''}`
    const covers = coveringStyle.test(element.getAttribute('style') ?? '') || overlayName.test(named)
    if (covers && !holdsPage(element)) element.remove()
  }
}

function baseUrlOf(document: HtmlDocument, pageUrl: string): string {
  const href = document.querySelector('base[href]')?.getAttribute('href')
  if (!href) return pageUrl
  try {
    return new URL(href, pageUrl).href
  } catch {
    return pageUrl
  }
}

/** Makes one attribute absolute; a link to script (javascript:, data:) loses its target rather than keeping it. */
function absolutize(element: HtmlElement, attribute: string, base: string, isLink: boolean): void {
  const value = element.getAttribute(attribute)?.trim() ?? ''
  let url: URL | undefined
  try {
    url = new URL(value, base)
  } catch {
    url = undefined
  }
  const keeps = url && (url.protocol === 'http:' || url.protocol === 'https:' || (isLink && url.protocol === 'mailto:'))
  if (keeps) element.setAttribute(attribute, url!.href)
  else element.removeAttribute(attribute)
}

function selectAll(document: HtmlDocument, selector: string, header: string): HtmlElement[] {
  try {
    return [...document.querySelectorAll(selector)]
  } catch (error) {
    throw new PageNotRead('selector', `${header} is not a valid CSS selector`, { cause: error })
  }
}

/** Removes what `X-Remove-Selector` names. */
export function removeSelected(document: HtmlDocument, selector: string): void {
  for (const element of selectAll(document, selector, 'X-Remove-Selector')) element.remove()
}

/**
 * The elements `X-Target-Selector` names, outermost only (a match inside another match would repeat). Matches
 * come in document order, so one inside an earlier match is inside the last outermost one kept: one check
 * each, not one against every other match.
 */
export function targetElements(document: HtmlDocument, selector: string): HtmlElement[] {
  const found = selectAll(document, selector, 'X-Target-Selector')
  if (found.length === 0) throw new PageNotRead('selector', 'X-Target-Selector matched no element of the page')
  const outermost: HtmlElement[] = []
  for (const element of found) if (!outermost.at(-1)?.contains(element)) outermost.push(element)
  return outermost
}
