import { describe, expect, it } from 'vitest'
import { models } from '#content/models'
import { posts } from '#content/news'
import { papers } from '#content/papers'
import { useFormat } from '~/lib/format'
import { ModelStats } from '~/features/marketing/model-stats'
import { PaperCard } from '~/features/marketing/paper-card'
import { NewsCard } from '~/components/marketing/news-card'
import { interfaceLocales } from '../../../app.config'
import { renderInLocale, textsOf } from '../support/render'

const day = '2025/10/01'
const paper = papers.find((p) => p.date === day)!
const model = models.find((m) => m.releaseDate === day)!
const { body: _, ...post } = { ...posts[0], date: day }

function TransactionTime({ iso }: { iso: string }) {
  return <time>{useFormat().dateTime(iso)}</time>
}

/** The dates a visitor reads for the same day on a paper card, a model's figures, a news card and its post. */
async function datesShown(lang: string) {
  const html = await Promise.all([
    renderInLocale(<PaperCard paper={paper} />, lang),
    renderInLocale(<ModelStats model={model} fields={['released']} />, lang),
    renderInLocale(<NewsCard post={post} />, lang),
  ])
  return html.flatMap((h) => textsOf(h, 'time'))
}

describe('dates', () => {
  it('reads the same on cards and news, unambiguously, in English', async () => {
    expect(await datesShown('en-US')).toEqual(['Oct 1, 2025', 'Oct 1, 2025', 'Oct 1, 2025'])
  })

  it.each(interfaceLocales)('has one format in %s, on the marketing pages and in the dashboard', async (lang) => {
    const shown = await datesShown(lang)
    expect(new Set(shown).size).toBe(1)
    // A transaction at noon UTC: the dashboard's date and time carries the same date.
    const [dashboard] = textsOf(await renderInLocale(<TransactionTime iso="2025-10-01T12:00:00Z" />, lang), 'time')
    expect(dashboard).toContain(shown[0])
  })
})
