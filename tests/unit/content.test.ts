import { existsSync, readFileSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { checkContent, contentProblems } from '../../content/check'
import { paper } from '../../content/schemas'
import {
  customerGroups,
  enterpriseProducts,
  featuredModels,
  getPost,
  jobSeasons,
  legacyProducts,
  marketplaceEntries,
  menuProducts,
  models,
  offices,
  ossProjects,
  papers,
  parseFrontmatter,
  posts,
  products,
  readingMinutes,
  socialLinks,
} from '../../content'

const publicDir = fileURLToPath(new URL('../../public', import.meta.url))
const modelSlugs = new Set(models.map((m) => m.slug))
const paperIds = new Set(papers.map((p) => p.id))
const yyyyMmDd = /^\d{4}\/\d{2}\/\d{2}$/

const allContent = {
  products,
  legacyProducts,
  models,
  papers,
  customerGroups,
  marketplaceEntries,
  jobSeasons,
  offices,
  socialLinks,
  ossProjects,
  posts,
}

/** Every string anywhere in the content that names a file under public/images/. */
function imagePaths(value: unknown, found = new Set<string>()): Set<string> {
  if (typeof value === 'string' && value.startsWith('/images/')) found.add(value)
  else if (Array.isArray(value)) value.forEach((item) => imagePaths(item, found))
  else if (value && typeof value === 'object') Object.values(value).forEach((item) => imagePaths(item, found))
  return found
}

function duplicates(values: string[]): string[] {
  return values.filter((value, i) => values.indexOf(value) !== i)
}

describe('schemas', () => {
  it('every collection satisfies its schema', () => {
    expect(() => checkContent()).not.toThrow()
  })

  it('names the collection, entry and field of a bad entry', () => {
    const broken = [...papers.slice(0, 2), { ...papers[2], link: 'http://example.com/paper', date: '2025/02/30' }]
    expect(contentProblems('papers', v.array(paper), broken)).toEqual([
      'papers.2.link must be https',
      'papers.2.link must be an arXiv abstract link',
      'papers.2.date must be a real calendar date',
    ])
  })
})

describe('cross references', () => {
  it('every paper links only to models in the catalogue', () => {
    const unknown = papers.flatMap((p) => p.models.filter((m) => !modelSlugs.has(m)).map((m) => `${p.id} → ${m}`))
    expect(unknown).toEqual([])
  })

  it('every model cites only papers that exist', () => {
    const unknown = models.flatMap((m) => m.paperIds.filter((id) => !paperIds.has(id)).map((id) => `${m.slug} → ${id}`))
    expect(unknown).toEqual([])
  })

  it('a paper and the models it describes point at each other', () => {
    const oneSided = [
      ...papers.flatMap((p) =>
        p.models
          .filter((slug) => !models.find((m) => m.slug === slug)?.paperIds.includes(p.id))
          .map((slug) => `${p.id} ↛ ${slug}`),
      ),
      ...models.flatMap((m) =>
        m.paperIds
          .filter((id) => !papers.find((p) => p.id === id)?.models.includes(m.slug))
          .map((id) => `${m.slug} ↛ ${id}`),
      ),
    ]
    expect(oneSided).toEqual([])
  })

  it('every product links only to models in the catalogue', () => {
    const unknown = products.flatMap((p) =>
      p.modelSlugs.filter((m) => !modelSlugs.has(m)).map((m) => `${p.key} → ${m}`),
    )
    expect(unknown).toEqual([])
  })

  it('every news post names only models in the catalogue', () => {
    const unknown = posts.flatMap((p) => p.models.filter((m) => !modelSlugs.has(m)).map((m) => `${p.slug} → ${m}`))
    expect(unknown).toEqual([])
  })
})

describe('images', () => {
  const paths = [...imagePaths(allContent)]

  it('finds the images the content refers to', () => {
    expect(paths.length).toBeGreaterThan(100)
  })

  it('every referenced image exists under public/', () => {
    expect(paths.filter((p) => !existsSync(publicDir + p))).toEqual([])
  })

  it('every referenced image stays under 40 KB', () => {
    const heavy = paths.filter((p) => existsSync(publicDir + p) && statSync(publicDir + p).size > 40 * 1024)
    expect(heavy).toEqual([])
  })

  it('every customer logo is declared at the size its file has', () => {
    const wrong = customerGroups
      .flatMap((g) => g.customers)
      .filter((c) => {
        const svg = readFileSync(publicDir + c.logo, 'utf8')
        return !svg.includes(`width="${c.width}" height="${c.height}"`)
      })
      .map((c) => c.slug)
    expect(wrong).toEqual([])
  })

  it('news covers and season cards come with WebP and AVIF sources', () => {
    for (const cover of [...posts.map((p) => p.cover), ...jobSeasons.map((j) => j.background)]) {
      expect(cover.webp).toMatch(/\.webp$/)
      expect(cover.avif).toMatch(/\.avif$/)
    }
  })
})

describe('identity and dates', () => {
  it.each([
    ['models', models.map((m) => m.slug)],
    ['papers', papers.map((p) => p.id)],
    ['products', products.map((p) => p.key)],
    ['legacy products', legacyProducts.map((p) => p.key)],
    ['news posts', posts.map((p) => p.slug)],
    ['customers', customerGroups.flatMap((g) => g.customers.map((c) => c.slug))],
    ['customer groups', customerGroups.map((g) => g.id)],
    ['social links', socialLinks.map((s) => s.id)],
    ['open-source projects', ossProjects.map((p) => p.name)],
    ['marketplace entries', marketplaceEntries.map((m) => m.id)],
  ])('no two %s share a slug', (_kind, slugs) => {
    expect(duplicates(slugs)).toEqual([])
  })

  it('every date is written yyyy/mm/dd', () => {
    const dates = [...models.map((m) => m.releaseDate), ...papers.map((p) => p.date), ...posts.map((p) => p.date)]
    expect(dates.filter((d) => !yyyyMmDd.test(d))).toEqual([])
  })
})

describe('papers', () => {
  it('lists exactly 14 papers', () => {
    expect(papers).toHaveLength(14)
  })

  it('lists papers newest first, led by the 2025/10/01 reranker v3 paper', () => {
    expect(papers.map((p) => p.date)).toEqual([...papers.map((p) => p.date)].sort().reverse())
    expect(papers[0].date).toBe('2025/10/01')
    expect(papers[0].models).toContain('reranker-v3')
  })

  it('describes reranker v3 with the figures from its paper', () => {
    const reranker = models.find((m) => m.slug === 'reranker-v3')
    expect(reranker?.parameters).toBe('0.6B')
    expect(reranker?.benchmark).toEqual({ name: 'BEIR', metric: 'nDCG@10', score: 61.94 })
  })
})

describe('site structure', () => {
  it('features the models of the spec, in its order', () => {
    expect(featuredModels.map((m) => m.slug)).toEqual([
      'reranker-v3',
      'code-embeddings-0.5b',
      'code-embeddings-1.5b',
      'reranker-m0',
      'clip-v2',
      'embeddings-v3',
      'reranker-v2-base-multilingual',
      'colbert-v2',
      'reader-lm-1.5b',
      'reader-lm-0.5b',
      'readerlm-v2',
    ])
  })

  it('menus five products and puts classifier, tokenizer and fine-tuning under enterprise', () => {
    expect(menuProducts.map((p) => p.key)).toEqual(['reader', 'embeddings', 'reranker', 'deepsearch', 'llm-serp-demo'])
    expect(enterpriseProducts.map((p) => [p.key, p.homepage])).toEqual([
      ['classifier', '/{-$locale}/classifier'],
      ['segmenter', '/{-$locale}/segmenter'],
      ['fine-tuning', '/{-$locale}/fine-tuning'],
    ])
  })

  it('gives every translatable caption a message id', () => {
    const descriptors = [
      ...products.flatMap((p) => [p.label, p.caption, p.description, p.audience, p.pricing]),
      ...legacyProducts.map((p) => p.caption),
      ...models.map((m) => m.description),
      ...customerGroups.map((g) => g.label),
      ...jobSeasons.map((j) => j.season),
      ...offices.map((o) => o.label),
    ]
    expect(descriptors.filter((d) => typeof d.id !== 'string' || d.id === '')).toEqual([])
  })

  it('lists three cloud marketplaces with exactly one disabled', () => {
    expect(marketplaceEntries).toHaveLength(3)
    expect(marketplaceEntries.filter((m) => m.disabled)).toHaveLength(1)
  })

  it('offers the winter 2025 and spring 2026 internship seasons', () => {
    expect(jobSeasons.map((j) => [j.id, j.year])).toEqual([
      ['winter-2025', 2025],
      ['spring-2026', 2026],
    ])
  })

  it('shows the WeChat code as a QR image rather than a link', () => {
    const wechat = socialLinks.find((s) => s.id === 'wechat')
    expect(wechat?.kind).toBe('qrcode')
  })
})

describe('news', () => {
  it('lists posts newest first and finds each by its slug', () => {
    expect(posts.length).toBeGreaterThanOrEqual(6)
    expect(posts.map((p) => p.date)).toEqual([...posts.map((p) => p.date)].sort().reverse())
    for (const post of posts) expect(getPost(post.slug)).toBe(post)
    expect(getPost('no-such-post')).toBeUndefined()
  })

  it('estimates reading time at 220 words a minute, at least one minute', () => {
    expect(readingMinutes('just a few words')).toBe(1)
    expect(readingMinutes('word '.repeat(660))).toBe(3)
  })

  it('reads quoted values and inline lists from frontmatter', () => {
    const { data, body } = parseFrontmatter('---\ntitle: "A: b"\ntags: [x, \'y\']\n---\n\nHello')
    expect(data).toEqual({ title: 'A: b', tags: ['x', 'y'] })
    expect(body).toBe('Hello')
  })

  it('refuses frontmatter lines that are not key: value', () => {
    expect(() => parseFrontmatter('---\njust text\n---\nbody')).toThrow(/line 1/)
    expect(() => parseFrontmatter('no frontmatter')).toThrow(/frontmatter/)
  })
})
