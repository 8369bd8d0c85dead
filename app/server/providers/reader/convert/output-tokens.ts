import type { ReaderPage } from '~/contracts/reader'
import { countTokens, measureText } from '../../inference/tokens'
import type { ConvertedPage } from './convert'
import { summaryText } from './summaries'

/**
 * The page as the reader answers it, with its output tokens: the content and any summaries, in cl100k_base,
 * whatever the answer's format. Counted where the page is converted (a page of megabytes takes a second to
 * count), so the metered number travels and is cached with the page.
 */
export async function withOutputTokens(page: ConvertedPage, maxTokens?: number): Promise<ReaderPage> {
  if (maxTokens !== undefined) {
    const { cut } = await measureText(page.content, maxTokens)
    if (cut) page = { ...page, content: cut.text }
  }
  const summaries = summaryText(page.links, page.images)
  const tokens = await countTokens(summaries ? `${page.content}\n\n${summaries}` : page.content)
  return { ...page, usage: { tokens } }
}
