/**
 * Schemas for the typed site content (spec §1, §3). ./check.ts parses every collection with them when
 * the server starts and in the content test, so a bad entry stops the build instead of reaching a page;
 * the browser imports only their types.
 */
import * as v from 'valibot'
import type { PagePath } from '../app/lib/page-path'
import {
  apiCapabilities,
  apiInputs,
  conferences,
  customerGroupIds,
  embeddingTasks,
  modelTags,
  ossStatuses,
  productKeys,
  socialIcons,
} from './vocabulary'

export * from './vocabulary'

/** A Lingui message descriptor as `msg` produces it; `message` is stripped from production builds. */
export const messageDescriptor = v.object({
  id: v.pipe(v.string(), v.minLength(1)),
  message: v.optional(v.string()),
  comment: v.optional(v.string()),
  values: v.optional(v.record(v.string(), v.unknown())),
})
export type MessageDescriptor = v.InferOutput<typeof messageDescriptor>

export const slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:[-.][a-z0-9]+)*$/, 'must be a lower-case slug'))

function isCalendarDate(s: string): boolean {
  const [y, m, d] = s.split('/').map(Number)
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** Dates are written yyyy/mm/dd throughout the content, as the papers list shows them. */
export const contentDate = v.pipe(
  v.string(),
  v.regex(/^\d{4}\/\d{2}\/\d{2}$/, 'must be yyyy/mm/dd'),
  v.check(isCalendarDate, 'must be a real calendar date'),
)

export const externalUrl = v.pipe(v.string(), v.url('must be a URL'), v.startsWith('https://', 'must be https'))
export const routePath = v.pipe(v.string(), v.regex(/^\/[a-z0-9\-/#]*$/, 'must be a site path'))
/** A page as its route names it ('/{-$locale}/reader'), so links to it are typed; tsc checks it against the route tree. */
export const pagePath = v.custom<PagePath>(
  (input) => typeof input === 'string' && /^\/\{-\$locale\}(\/[a-z0-9-]+)*$/.test(input),
  'must be a page route like /{-$locale}/reader',
)
/** A file served from public/; the content test checks that each one exists. */
export const imagePath = v.pipe(
  v.string(),
  v.regex(/^\/images\/[a-z0-9\-/.]+\.(svg|webp|avif|png)$/, 'must be an image under /images/'),
)

/** A wide picture (news cover, season card) with raster sources for `<picture>` and an SVG fallback. */
export const coverImage = v.object({
  src: imagePath,
  webp: imagePath,
  avif: imagePath,
  width: v.literal(1200),
  height: v.literal(630),
})
export type CoverImage = v.InferOutput<typeof coverImage>

// Products (spec §3 "Product menu entry")

export const productKey = v.picklist(productKeys)

export const product = v.object({
  key: productKey,
  label: messageDescriptor,
  caption: messageDescriptor,
  description: messageDescriptor,
  audience: messageDescriptor,
  pricing: messageDescriptor,
  homepage: pagePath,
  icon: imagePath,
  activeIcons: v.object({ dark: imagePath, light: imagePath }),
  /** Three hue angles (0–360°) for the product's gradient accent, start, middle and end. */
  spectrum: v.tuple([hue(), hue(), hue()]),
  subItems: v.optional(v.array(v.object({ label: messageDescriptor, path: routePath }))),
  /** Listed under the "enterprise & others" group of the products menu. */
  enterprise: v.boolean(),
  /** False for a product page that exists but is in neither the products menu nor the footer. */
  inMenu: v.boolean(),
  modelSlugs: v.array(slug),
})
export type Product = v.InferOutput<typeof product>

function hue() {
  return v.pipe(v.number(), v.minValue(0), v.maxValue(360))
}

export const legacyProduct = v.object({
  key: slug,
  /** Product names are proper nouns and stay untranslated. */
  label: v.string(),
  caption: messageDescriptor,
  link: externalUrl,
})
export type LegacyProduct = v.InferOutput<typeof legacyProduct>

// Models and papers

export const modelTag = v.picklist(modelTags)

const positiveInt = v.pipe(v.number(), v.integer(), v.minValue(1))

/**
 * How the search APIs serve a model: the names a request may give it besides its slug (which is its API id),
 * including the ids existing client libraries send by default, and what it computes and reads.
 */
export const modelApi = v.object({
  aliases: v.array(v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9.-]*$/, 'must be a lower-case model id'))),
  capabilities: v.pipe(v.array(v.picklist(apiCapabilities)), v.minLength(1)),
  inputs: v.pipe(v.array(v.picklist(apiInputs)), v.minLength(1)),
  /** Task adapters (`task` values that change the vectors); empty: one embedding for every use. */
  tasks: v.array(v.picklist(embeddingTasks)),
  /** Width of each token vector when the model gives one per token (`return_multivector`). */
  multiVectorDimensions: v.optional(positiveInt),
  /** Whether the model embeds consecutive inputs as chunks of one document (`late_chunking`). */
  lateChunking: v.boolean(),
})
export type ModelApi = v.InferOutput<typeof modelApi>

export const model = v.object({
  slug,
  name: v.pipe(v.string(), v.minLength(1)),
  tags: v.pipe(v.array(modelTag), v.minLength(1)),
  parameters: v.pipe(v.string(), v.regex(/^\d+(\.\d+)?[MB]$/, 'must read like 0.6B or 570M')),
  contextLength: positiveInt,
  dimensions: v.optional(positiveInt),
  releaseDate: contentDate,
  featured: v.boolean(),
  description: messageDescriptor,
  huggingFaceUrl: v.pipe(externalUrl, v.startsWith('https://huggingface.co/lodestar-ai/')),
  license: v.picklist(['Apache-2.0', 'CC-BY-NC-4.0', 'Proprietary']),
  numReplicas: v.pipe(v.number(), v.integer(), v.minValue(0)),
  benchmark: v.optional(v.object({ name: v.string(), metric: v.string(), score: v.number() })),
  paperIds: v.array(slug),
  image: v.pipe(imagePath, v.startsWith('/images/models/')),
  /** Absent for models the search APIs do not serve (the reader's language models). */
  api: v.optional(modelApi),
})
export type Model = v.InferOutput<typeof model>

export const paper = v.object({
  id: slug,
  models: v.pipe(v.array(slug), v.minLength(1)),
  title: v.pipe(v.string(), v.minLength(1)),
  summary: v.pipe(v.string(), v.minLength(1)),
  link: v.pipe(externalUrl, v.regex(/^https:\/\/arxiv\.org\/abs\/\d{4}\.\d{5}$/, 'must be an arXiv abstract link')),
  date: contentDate,
  paperImage: v.pipe(imagePath, v.startsWith('/images/papers/')),
  conference: v.optional(v.picklist(conferences)),
})
export type Paper = v.InferOutput<typeof paper>

// Company

export const customerGroup = v.object({
  id: v.picklist(customerGroupIds),
  label: messageDescriptor,
  customers: v.pipe(
    v.array(
      v.object({
        slug,
        name: v.string(),
        logo: v.pipe(imagePath, v.startsWith('/images/customers/')),
        /** The logo's own size in CSS pixels, so it is drawn at its aspect ratio. */
        width: positiveInt,
        height: positiveInt,
      }),
    ),
    v.minLength(4),
    v.maxLength(6),
  ),
})
export type CustomerGroup = v.InferOutput<typeof customerGroup>

export const marketplaceEntry = v.object({
  id: slug,
  label: v.string(),
  icon: v.pipe(imagePath, v.startsWith('/images/marketplace/')),
  link: externalUrl,
  products: v.pipe(v.array(v.picklist(['embedding', 'reranker'])), v.minLength(1)),
  /** Shown greyed out, without a link, while the listing is not live. */
  disabled: v.boolean(),
})
export type MarketplaceEntry = v.InferOutput<typeof marketplaceEntry>

export const jobSeason = v.object({
  id: slug,
  season: messageDescriptor,
  year: v.pipe(v.number(), v.integer(), v.minValue(2020)),
  background: coverImage,
  url: externalUrl,
})
export type JobSeason = v.InferOutput<typeof jobSeason>

export const office = v.object({
  id: slug,
  label: messageDescriptor,
  kind: v.picklist(['office', 'headquarters']),
  /** Postal lines, untranslated: a postal address reads the same in every language. */
  address: v.pipe(v.array(v.string()), v.minLength(2)),
})
export type Office = v.InferOutput<typeof office>

const socialBase = {
  id: slug,
  icon: v.picklist(socialIcons),
  iconSrc: v.pipe(imagePath, v.startsWith('/images/socials/')),
  /** Accessible name of the icon-only link. */
  label: messageDescriptor,
}
export const socialLink = v.variant('kind', [
  v.object({
    ...socialBase,
    kind: v.literal('link'),
    link: v.pipe(v.string(), v.regex(/^(https:\/\/|mailto:)/, 'must be https or mailto')),
  }),
  v.object({ ...socialBase, kind: v.literal('qrcode'), qrcode: imagePath }),
])
export type SocialLink = v.InferOutput<typeof socialLink>

export const ossProject = v.object({
  name: slug,
  description: v.string(),
  repo: v.pipe(externalUrl, v.startsWith('https://github.com/')),
  status: v.picklist(ossStatuses),
})
export type OssProject = v.InferOutput<typeof ossProject>

// News

export const newsPost = v.object({
  slug,
  title: v.pipe(v.string(), v.minLength(1)),
  author: v.pipe(v.string(), v.minLength(1)),
  date: contentDate,
  cover: coverImage,
  excerpt: v.pipe(v.string(), v.minLength(1), v.maxLength(300)),
  tags: v.array(slug),
  /** Model slugs the post is about, for cross-links from model pages. */
  models: v.array(slug),
  readingMinutes: positiveInt,
  /** Markdown source; the app renders it. */
  body: v.pipe(v.string(), v.minLength(1)),
})
export type NewsPost = v.InferOutput<typeof newsPost>

/**
 * One page of the API documentation (`/docs/<slug>`): its Markdown body, English like the news posts. The
 * body has no `#` title (the page's title is its index entry's, translated) and starts at `##` headings.
 */
export const docPage = v.object({
  slug,
  body: v.pipe(
    v.string(),
    v.minLength(1),
    v.check((body) => !/^# /m.test(body.replace(/^```[\s\S]*?^```/gm, '')), 'must not hold a # title'),
  ),
})
export type DocPage = v.InferOutput<typeof docPage>

/** An API path as the OpenAPI document writes it (`/v1/embeddings`, `/api/v1/billing/{id}`): a prefix of its operations. */
const apiPathPrefix = v.pipe(v.string(), v.regex(/^\/[\w\-/{}.]*$/, 'must be an API path'))

/** A page's entry in the documentation's index: what the navigation, the page's title and /api-reference read. */
export const docsIndexEntry = v.object({
  slug,
  title: messageDescriptor,
  description: messageDescriptor,
  /** The API paths this page documents: /api-reference links each operation under one to this page (longest wins). */
  paths: v.array(apiPathPrefix),
})
export type DocsIndexEntry = v.InferOutput<typeof docsIndexEntry>

export const docsSection = v.object({
  id: slug,
  title: messageDescriptor,
  pages: v.pipe(v.array(docsIndexEntry), v.minLength(1)),
})
export type DocsSection = v.InferOutput<typeof docsSection>
