import { Plural, Trans } from '@lingui/react/macro'
import { models } from '#content/models'
import type { Model, ModelTag } from '#content/schemas'
import type { NewsSummary } from '~/lib/news-summary'
import { ModelCard } from '../model-card'
import { PageHeader, Section } from '~/components/marketing/section'
import { ModelDetail } from './model-detail'
import { ResearchSection } from './research-section'
import { TagFilter } from './tag-filter'

/** Cards in the grid's first row at its widest (lg:grid-cols-3). */
const firstRow = 3

/** /models and /models/{slug}: the catalogue, with one model focused in a detail panel when a slug is given. */
export function ModelsPage({ tag, focused, news = [] }: { tag?: ModelTag; focused?: Model; news?: NewsSummary[] }) {
  const shown = tag ? models.filter((m) => m.tags.includes(tag)) : models
  const count = shown.length
  return (
    <>
      {focused ? (
        <ModelDetail model={focused} news={news} />
      ) : (
        <PageHeader
          title={<Trans>Models</Trans>}
          lead={
            <Trans>
              Embedding, reranker, reader and multimodal models behind our API, with their sizes, context lengths and
              the papers that describe them.
            </Trans>
          }
        />
      )}
      <Section
        id="catalogue"
        title={focused ? <Trans>All models</Trans> : <Trans>Catalogue</Trans>}
        intro={<Plural value={count} one="# model" other="# models" />}
      >
        <TagFilter active={tag} slug={focused?.slug} />
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {shown.map((model, index) => (
            <li key={model.slug}>
              <ModelCard
                model={model}
                showPapers
                current={model.slug === focused?.slug}
                eager={!focused && index < firstRow}
              />
            </li>
          ))}
        </ul>
      </Section>
      <ResearchSection />
    </>
  )
}
