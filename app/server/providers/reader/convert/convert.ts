import { Readability } from '@mozilla/readability'
import type { ReturnFormat, SummaryOption } from '~/contracts/reader'
import type { PageKind } from '../page-rules'
import {
  parsePage,
  removeInert,
  removeOverlays,
  removeSelected,
  targetElements,
  type HtmlElement,
} from './html-document'
import { markdownOf, type MarkdownOptions } from './markdown'
import { metadataOf } from './metadata'
import { checkPageShape } from './page-shape'
import { looksScriptBuilt, scriptSignsOf } from './script-built'
import { allImagesOf, allLinksOf, imagesOf, linksOf, type LinkSummary } from './summaries'
import { textOf } from './text'

export interface ConvertOptions {
  format: ReturnFormat
  targetSelector?: string
  removeSelector?: string
  /** `true`: each link once; `all`: every link of the page in order (see `./summaries.ts`). */
  withLinks: SummaryOption
  /** `true`: the images of what was converted, once each; `all`: every image of the page. */
  withImages: SummaryOption
  /** How the Markdown is written (images, GitHub's extensions, turndown's options). */
  markdown?: MarkdownOptions
  /** Keeps images given inline as `data:` URLs (dropped by default: they are long and say little as text). */
  keepImageDataUrls?: boolean
  /** Cuts the content at this many output tokens (`X-Max-Output-Tokens`, `X-Max-Tokens`). */
  maxTokens?: number
  /** Removes what covers the page before converting it (`X-Remove-Overlay`): see `removeOverlays`. */
  removeOverlay?: boolean
}

/**
 * One page to convert, as it arrived (or as much of it as has arrived, for a streamed snapshot). Everything
 * a conversion depends on is here, so it can be sent to the process that converts it.
 */
export type ConversionRequest = PageRequest | PdfRequest

interface RequestOf<Kind extends PageKind, Source> {
  source: Source
  kind: Kind
  /** Where the page was found, after redirects: its links and images are made absolute against it. */
  url: string
  options: ConvertOptions
}

/** A page of text (HTML, plain text, JSON), decoded. */
export type PageRequest = RequestOf<Exclude<PageKind, 'pdf'>, string>
/** A PDF as its bytes: parsed in the converter too (`./pdf.ts`). */
export type PdfRequest = RequestOf<'pdf', Uint8Array>

/** What the reader made of a page, before it is metered and answered. */
export interface ConvertedPage {
  title: string
  description: string
  url: string
  content: string
  publishedTime?: string
  links: LinkSummary
  images: Record<string, string>
  /** How many pages the document has, when it is a PDF. */
  pages?: number
  /** An HTML page that most likely writes its text with a script (`./script-built.ts`): worth the browser. */
  scriptBuilt?: boolean
}

/**
 * The article is kept when its Markdown holds at least this share of the whole page's: below it,
 * Readability most likely picked a fragment (a comment, a sidebar) of a page that is not an article.
 */
export const ARTICLE_SHARE = 0.3

/**
 * A page in the requested format (see README, "Reader"): `content` is the article or, failing that, the page.
 * Synchronous and CPU-bound: a page from the web is converted in a converter process (`../convert-pool`), never
 * on the server's event loop.
 */
export function convertPage({ source, kind, url, options }: PageRequest): ConvertedPage {
  if (kind === 'html') return convertHtml(source, url, options)
  const content =
    kind === 'json' && (options.format === 'content' || options.format === 'markdown')
      ? `\`\`\`json\n${prettyJson(source)}\n\`\`\``
      : source.trim()
  return { title: '', description: '', url, content, links: {}, images: {} }
}

function prettyJson(source: string): string {
  try {
    return JSON.stringify(JSON.parse(source), null, 2)
  } catch {
    return source.trim()
  }
}

function convertHtml(html: string, url: string, options: ConvertOptions): ConvertedPage {
  // Before anything is built from it: a page over the limits is refused in time linear in its length.
  checkPageShape(html)
  const document = parsePage(html, url, options.keepImageDataUrls)
  const metadata = metadataOf(document)
  const body = (document.body ?? document.documentElement) as HtmlElement
  // `all` summaries are of the whole page as it came, before any selector narrows it (as the original's are).
  const allLinks = options.withLinks === 'all' ? allLinksOf(body) : undefined
  const allImages = options.withImages === 'all' ? allImagesOf(body) : undefined
  const signs = scriptSignsOf(document)
  removeInert(document)
  // Judged on the page as it came, before a caller's selectors narrow it.
  const scriptBuilt = looksScriptBuilt(document, signs)
  if (options.removeOverlay) removeOverlays(document)
  if (options.removeSelector) removeSelected(document, options.removeSelector)
  const roots = options.targetSelector ? targetElements(document, options.targetSelector) : [body]
  const imagesOfContent = (converted: HtmlElement[]) => allImages ?? (options.withImages ? imagesOf(converted) : {})
  const page = {
    ...metadata,
    ...(scriptBuilt && { scriptBuilt }),
    url,
    links: allLinks ?? (options.withLinks ? linksOf(roots) : {}),
    images: imagesOfContent(roots),
  }
  switch (options.format) {
    case 'html':
      return {
        ...page,
        content: options.targetSelector ? roots.map((r) => r.outerHTML).join('\n') : document.toString(),
      }
    case 'text':
      return { ...page, content: textOf(roots) }
    case 'markdown':
      return { ...page, content: markdownOf(roots, options.markdown) }
    case 'content': {
      const full = markdownOf(roots, options.markdown)
      if (options.targetSelector) return { ...page, content: full }
      const article = articleOf(document)
      if (!article) return { ...page, content: full }
      const articleMarkdown = markdownOf([article.element], options.markdown)
      if (articleMarkdown.length < ARTICLE_SHARE * full.length) return { ...page, content: full }
      return {
        ...page,
        title: page.title || article.title,
        publishedTime: page.publishedTime ?? article.publishedTime,
        content: articleMarkdown,
        // `true` summarises the images of what is answered: the article's, not the page's around it.
        images: imagesOfContent([article.element]),
      }
    }
  }
}

/** Readability's article (it rewrites the document it reads, so this comes last); undefined when it finds none. */
function articleOf(document: ReturnType<typeof parsePage>) {
  const article = new Readability(document as unknown as Document, {
    serializer: (node: Node) => node,
    keepClasses: false,
  }).parse()
  if (!article?.content) return undefined
  const publishedTime = article.publishedTime ? new Date(article.publishedTime) : undefined
  return {
    element: article.content as unknown as HtmlElement,
    title: (article.title ?? '').trim(),
    publishedTime: publishedTime && !Number.isNaN(publishedTime.getTime()) ? publishedTime.toISOString() : undefined,
  }
}
