import { msg } from '@lingui/core/macro'
import type { PageMeta } from '~/lib/seo'

/** Title and description of every public page, translated through the catalogs. */
export const pageMeta = {
  landing: {
    title: msg`Search foundation models and APIs`,
    description: msg`Reader, embeddings, reranker, deep search, classifier and segmenter APIs for building search and retrieval on any data.`,
  },
  aboutUs: {
    title: msg`About us`,
    description: msg`Who we are, what we build and why search needs better foundations.`,
  },
  contactSales: {
    title: msg`Contact sales`,
    description: msg`Talk to our team about enterprise volumes, on-premise deployment and custom models.`,
  },
  internship: {
    title: msg`Internship`,
    description: msg`Research and engineering internships in Berlin and Sunnyvale.`,
  },
  legal: {
    title: msg`Legal terms`,
    description: msg`Terms of service, privacy policy and data processing terms.`,
  },
  news: {
    title: msg`News`,
    description: msg`Model releases, research notes and product updates.`,
  },
  models: {
    title: msg`Models`,
    description: msg`Our embedding, reranker, reader and multimodal models with their parameters, context lengths and papers.`,
  },
  embeddings: {
    title: msg`Embeddings`,
    description: msg`Multilingual and multimodal embeddings for search, RAG and clustering.`,
  },
  reranker: {
    title: msg`Reranker`,
    description: msg`Reorder search results by relevance to the query with one API call.`,
  },
  reader: {
    title: msg`Reader`,
    description: msg`Turn any URL into clean, LLM-ready Markdown.`,
  },
  deepsearch: {
    title: msg`DeepSearch`,
    description: msg`An agent that searches, reads and reasons until it finds the answer.`,
  },
  fineTuning: {
    title: msg`Fine-tuning`,
    description: msg`Adapt our embedding and reranker models to your domain.`,
  },
  llmSerpDemo: {
    title: msg`LLM SERP demo`,
    description: msg`What a search results page looks like when a language model writes it.`,
  },
  segmenter: {
    title: msg`Segmenter`,
    description: msg`Count tokens and split long text into chunks for language models.`,
  },
  classifier: {
    title: msg`Classifier`,
    description: msg`Zero-shot and few-shot classification of text and images.`,
  },
  apiDashboard: {
    title: msg`API dashboard`,
    description: msg`Your API key, token balance, usage, billing and jobs.`,
  },
  signIn: {
    title: msg`Sign in`,
    description: msg`Sign in to keep your API keys on every device.`,
  },
  sandboxCheckout: {
    title: msg`Sandbox checkout`,
    description: msg`A test-mode checkout: no real card is charged.`,
  },
} satisfies Record<string, PageMeta>

export type PageKey = keyof typeof pageMeta
