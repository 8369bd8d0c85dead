import { msg } from '@lingui/core/macro'
import { brand } from '#config'
import type { LegacyProduct, Product } from './schemas'
import type { ProductKey } from './vocabulary'

const icons = (key: ProductKey) => ({
  icon: `/images/icons/${key}.svg`,
  activeIcons: { dark: `/images/icons/${key}-dark.svg`, light: `/images/icons/${key}-light.svg` },
})

export const products: Product[] = [
  {
    key: 'reader',
    label: msg`Reader`,
    caption: msg`Turn any URL into LLM-ready text`,
    description: msg`Reader fetches a web page, finds the article in it and returns clean Markdown with the title, links and images, ready for a language model or a search index. Headers choose the format, keep or drop parts of the page, and stream the result as it is read.`,
    audience: msg`For developers building retrieval-augmented generation, agents and crawlers that need the text of a page, not its markup.`,
    pricing: msg`Billed per output token of the text returned; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/reader',
    ...icons('reader'),
    spectrum: [18, 36, 54],
    subItems: [
      { label: msg`Read a URL`, path: '/reader#read' },
      { label: msg`Shape the output`, path: '/reader#options' },
    ],
    enterprise: false,
    inMenu: true,
    modelSlugs: ['readerlm-v2', 'reader-lm-1.5b', 'reader-lm-0.5b'],
  },
  {
    key: 'embeddings',
    label: msg`Embeddings`,
    caption: msg`Multilingual, multimodal embeddings for search and RAG`,
    description: msg`Embeddings turn text, images and code into vectors that place similar meanings close together. One API serves long documents up to 32K tokens in more than 80 languages, with dimensions you can truncate to fit your vector store.`,
    audience: msg`For teams building semantic search, recommendation, clustering or retrieval-augmented generation.`,
    pricing: msg`Billed per input token; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/embeddings',
    ...icons('embeddings'),
    spectrum: [200, 220, 245],
    enterprise: false,
    inMenu: true,
    modelSlugs: [
      'embeddings-v4',
      'embeddings-v3',
      'clip-v2',
      'code-embeddings-1.5b',
      'code-embeddings-0.5b',
      'colbert-v2',
      'embeddings-v2-base-en',
    ],
  },
  {
    key: 'reranker',
    label: msg`Reranker`,
    caption: msg`Put the most relevant results first`,
    description: msg`The reranker reads a query together with your candidate documents and scores how well each one answers it. Placed after a fast first-stage search, it lifts precision without re-indexing anything.`,
    audience: msg`For search and RAG pipelines that already retrieve candidates and need the best few on top.`,
    pricing: msg`Billed per input token of the query and documents; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/reranker',
    ...icons('reranker'),
    spectrum: [150, 170, 190],
    enterprise: false,
    inMenu: true,
    modelSlugs: ['reranker-v3', 'reranker-m0', 'reranker-v2-base-multilingual', 'colbert-v2'],
  },
  {
    key: 'deepsearch',
    label: msg`DeepSearch`,
    caption: msg`Search, read and reason until the answer is found`,
    description: msg`DeepSearch is an agent that searches the web, reads pages and reasons over them in a loop until it can answer with citations. It speaks the chat-completions format, so existing clients can stream its answers.`,
    audience: msg`For research assistants, analysts and products that need answers to hard questions, not a list of links.`,
    pricing: msg`Billed per token of the whole search session, reading included; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/deepsearch',
    ...icons('deepsearch'),
    spectrum: [265, 290, 320],
    enterprise: false,
    inMenu: true,
    modelSlugs: ['readerlm-v2', 'reranker-v3', 'embeddings-v4'],
  },
  {
    key: 'classifier',
    label: msg`Classifier`,
    caption: msg`Zero-shot and few-shot classification for text and images`,
    description: msg`The classifier sorts text and images into your own labels, zero-shot from label names alone or few-shot after training on a handful of examples. Trained classifiers are kept under your key and can be shared or made public.`,
    audience: msg`For content moderation, routing, tagging and intent detection without training a model from scratch.`,
    pricing: msg`Billed per input token, training examples included; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/classifier',
    ...icons('classifier'),
    spectrum: [330, 350, 10],
    enterprise: true,
    inMenu: true,
    modelSlugs: ['embeddings-v3', 'clip-v2'],
  },
  {
    key: 'segmenter',
    label: msg`Tokenizer`,
    caption: msg`Count tokens and split long text into chunks`,
    description: msg`The segmenter tokenizes text the way our models do and splits long documents into chunks at sensible boundaries. Use it to predict costs and to prepare documents for embedding.`,
    audience: msg`For developers who need token counts or chunking before they embed, rerank or prompt.`,
    pricing: msg`Free of charge; requests count towards your rate limit but use no tokens.`,
    homepage: '/{-$locale}/segmenter',
    ...icons('segmenter'),
    spectrum: [40, 80, 120],
    enterprise: true,
    inMenu: true,
    modelSlugs: ['embeddings-v3'],
  },
  {
    key: 'fine-tuning',
    label: msg`Fine-tuning`,
    caption: msg`Adapt our models to your domain`,
    description: msg`We fine-tune embedding and reranker models on your own data and deploy them behind the same API. You keep the evaluation set and see the gain before switching over.`,
    audience: msg`For enterprises whose vocabulary, languages or documents differ from the open web.`,
    pricing: msg`Quoted per project; serving is billed per token like the base model.`,
    homepage: '/{-$locale}/fine-tuning',
    ...icons('fine-tuning'),
    spectrum: [90, 140, 180],
    enterprise: true,
    inMenu: true,
    modelSlugs: ['embeddings-v3', 'reranker-v2-base-multilingual'],
  },
  {
    key: 'llm-serp-demo',
    label: msg`LLM SERP`,
    caption: msg`A search results page written by a language model`,
    description: msg`This demo asks a language model to imagine a search engine results page for your query, then checks each result against the live web with Reader. It shows how far model knowledge goes and where grounding is needed.`,
    audience: msg`For anyone curious how language models compare with a real search engine.`,
    pricing: msg`Each search is a DeepSearch session on your API key, billed per token of the whole session; 10 million free tokens with every new key.`,
    homepage: '/{-$locale}/llm-serp-demo',
    ...icons('llm-serp-demo'),
    spectrum: [220, 260, 300],
    enterprise: false,
    inMenu: true,
    modelSlugs: ['readerlm-v2'],
  },
]

export const menuProducts = products.filter((p) => p.inMenu && !p.enterprise)
export const enterpriseProducts = products.filter((p) => p.inMenu && p.enterprise)

export function getProduct(key: ProductKey) {
  return products.find((p) => p.key === key)
}

const legacyLink = (sub: string) => `https://${sub}.${brand.domain}/`

export const legacyProducts: LegacyProduct[] = [
  {
    key: 'prompt-studio',
    label: 'Prompt Studio',
    caption: msg`Write and optimise prompts for any model`,
    link: legacyLink('prompt'),
  },
  {
    key: 'scene-describer',
    label: 'Scene Describer',
    caption: msg`Describe images and videos in words`,
    link: legacyLink('scene'),
  },
  {
    key: 'banner-maker',
    label: 'Banner Maker',
    caption: msg`Turn an article into a banner image`,
    link: legacyLink('banner'),
  },
  {
    key: 'lodestar-chat',
    label: `${brand.shortName} Chat`,
    caption: msg`A chat assistant with long-term memory`,
    link: legacyLink('chat'),
  },
  {
    key: 'rationale',
    label: 'Rationale',
    caption: msg`Weigh the pros and cons of a decision`,
    link: legacyLink('rationale'),
  },
]
