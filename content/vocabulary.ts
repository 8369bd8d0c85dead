/**
 * The fixed lists and helpers the content and the pages share. Kept apart from ./schemas, which holds
 * the valibot schemas: the browser needs these values but never the validators (content is checked on
 * the server and in tests, see ./check.ts).
 */
import type { CoverImage } from './schemas'

export const productKeys = [
  'reader',
  'embeddings',
  'reranker',
  'deepsearch',
  'classifier',
  'segmenter',
  'fine-tuning',
  'llm-serp-demo',
] as const

export const modelTags = [
  'embeddings',
  'reranker',
  'reader',
  'multimodal',
  'multilingual',
  'code',
  'classifier',
  'late-interaction',
] as const

/** What the search APIs (`/v1/…`) can compute with a model of the catalogue. */
export const apiCapabilities = ['embeddings', 'rerank', 'classify'] as const
export type ApiCapability = (typeof apiCapabilities)[number]

/** What a model reads: text, and images for the multimodal ones. */
export const apiInputs = ['text', 'image'] as const
export type ApiInput = (typeof apiInputs)[number]

/** The embeddings API's `task` values (the adapters a model may have), the original's names. */
export const embeddingTasks = [
  'retrieval.query',
  'retrieval.passage',
  'text-matching',
  'classification',
  'separation',
  'code.query',
  'code.passage',
] as const
export type EmbeddingTask = (typeof embeddingTasks)[number]

export const conferences = [
  'NeurIPS 2025',
  'EMNLP 2025',
  'ICLR 2025',
  'ACL 2025',
  'ECIR 2025',
  'SIGIR 2025',
  'EMNLP 2024',
  'WWW 2025',
  'ICML 2024',
  'EMNLP 2023',
] as const

export const customerGroupIds = [
  'technology',
  'media',
  'finance-consulting',
  'ecommerce-retail',
  'misc',
  'llm-providers',
  'universities',
] as const

export const socialIcons = ['x', 'linkedin', 'github', 'huggingface', 'discord', 'wechat', 'mail'] as const

export const ossStatuses = ['incubating', 'sandbox', 'graduated', 'archived', 'linux_foundation'] as const

/** Derives the raster siblings that content/tools/generate_images.py writes next to an SVG cover. */
export function coverFromSvg(svg: string): CoverImage {
  const base = svg.replace(/\.svg$/, '')
  return { src: svg, webp: `${base}.webp`, avif: `${base}.avif`, width: 1200, height: 630 }
}

export type ProductKey = (typeof productKeys)[number]
export type ModelTag = (typeof modelTags)[number]

/**
 * The general-purpose model each search API's samples, demos and dashboard forms start from (a developer
 * who has not chosen yet wants text in, one vector out, not a code or multimodal model).
 */
export const defaultModelIds = {
  embeddings: 'embeddings-v3',
  rerank: 'reranker-v3',
  classify: 'embeddings-v3',
} as const
