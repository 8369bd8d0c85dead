import { Trans } from '@lingui/react/macro'
import type * as React from 'react'
import { ArrowRight } from 'lucide-react'
import { featuredModels } from '#content/models'
import { papers } from '#content/papers'
import { products } from '#content/products'
import type { ProductKey } from '#content/schemas'
import { LocalizedLink } from '~/components/site/localized-link'
import type { PagePath } from '~/lib/page-path'
import { NewsCard } from '~/components/marketing/news-card'
import type { NewsSummary } from '~/lib/news-summary'
import { CustomerLogos } from '../customer-logos'
import { FeaturedModelCard } from '../featured-model-card'
import { MarketplaceListings } from '../marketplace-listings'
import { PaperCard } from '../paper-card'
import { ProductCard } from '../product-card'
import { Section } from '~/components/marketing/section'
import { ClosingCallToAction } from './closing-cta'
import { Hero } from './hero'

const family: ProductKey[] = ['reader', 'embeddings', 'reranker', 'deepsearch', 'classifier', 'segmenter']
const familyProducts = family.map((key) => products.find((p) => p.key === key)!)

function MoreLink({ to, hash, children }: { to: PagePath; hash?: string; children: React.ReactNode }) {
  return (
    <LocalizedLink
      to={to}
      hash={hash}
      className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
    >
      {children}
      <ArrowRight aria-hidden className="size-4" />
    </LocalizedLink>
  )
}

export function LandingPage({ news }: { news: NewsSummary[] }) {
  return (
    <>
      <Hero />
      <Section
        id="products"
        title={<Trans>One API for every step of search</Trans>}
        intro={
          <Trans>Each product works on its own and together they cover the path from raw web pages to answers.</Trans>
        }
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {familyProducts.map((product) => (
            <li key={product.key}>
              <ProductCard product={product} />
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="models"
        className="bg-muted/40"
        title={<Trans>Featured models</Trans>}
        intro={<Trans>Open-weight models behind the API, each with a paper explaining how it was built.</Trans>}
        action={
          <MoreLink to="/{-$locale}/models">
            <Trans>All models</Trans>
          </MoreLink>
        }
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {featuredModels.map((model) => (
            <li key={model.slug}>
              <FeaturedModelCard model={model} />
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="customers"
        title={<Trans>Trusted across industries</Trans>}
        intro={<Trans>From start-ups to universities, teams build search and RAG on our models.</Trans>}
      >
        <CustomerLogos />
      </Section>
      <Section
        id="marketplace"
        className="bg-muted/40"
        title={<Trans>Buy through your cloud</Trans>}
        intro={
          <Trans>
            Embeddings and the reranker are listed on the large cloud marketplaces, billed with your existing account.
          </Trans>
        }
      >
        <MarketplaceListings />
      </Section>
      <Section
        id="research"
        title={<Trans>Latest research</Trans>}
        action={
          <MoreLink to="/{-$locale}/models" hash="research">
            <Trans>All papers</Trans>
          </MoreLink>
        }
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {papers.slice(0, 4).map((paper) => (
            <li key={paper.id}>
              <PaperCard paper={paper} compact />
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="news"
        className="bg-muted/40"
        title={<Trans>Latest news</Trans>}
        action={
          <MoreLink to="/{-$locale}/news">
            <Trans>All news</Trans>
          </MoreLink>
        }
      >
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {news.slice(0, 3).map((post) => (
            <li key={post.slug}>
              <NewsCard post={post} />
            </li>
          ))}
        </ul>
      </Section>
      <ClosingCallToAction />
    </>
  )
}
