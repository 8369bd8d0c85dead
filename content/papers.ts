import type { Paper } from './schemas'

const image = (id: string) => `/images/papers/${id}.svg`

// Titles and summaries stay in English, as the papers themselves are.
const data: Paper[] = [
  {
    id: 'reranker-v3-listwise',
    models: ['reranker-v3'],
    title: 'Last but Not Late: Listwise Document Reranking in a Single Context Window',
    summary:
      'We present Reranker v3, a 0.6B-parameter multilingual reranker that places the query and up to 64 candidate documents in one causal context and scores them all from their final hidden states. Letting documents attend to each other gives the model comparative evidence that pointwise cross-encoders lack, and it reaches 61.94 nDCG@10 on BEIR while being ten times smaller than generative listwise rerankers.',
    link: 'https://arxiv.org/abs/2510.04417',
    date: '2025/10/01',
    paperImage: image('reranker-v3-listwise'),
  },
  {
    id: 'code-embeddings',
    models: ['code-embeddings-0.5b', 'code-embeddings-1.5b'],
    title: 'Efficient Code Embeddings from Code Generation Models',
    summary:
      'We turn autoregressive code generation backbones into retrieval models by last-token pooling and task-specific instruction prefixes. Trained on text-to-code, code-to-code and technical Q&A pairs, the 0.5B and 1.5B models match much larger embedding models on code retrieval benchmarks.',
    link: 'https://arxiv.org/abs/2508.17365',
    date: '2025/08/28',
    paperImage: image('code-embeddings'),
    conference: 'EMNLP 2025',
  },
  {
    id: 'deepsearch-reading',
    models: ['embeddings-v4', 'readerlm-v2'],
    title: 'Read Before You Answer: Budgeted Web Reading for Deep Search Agents',
    summary:
      'Deep search agents spend most of their token budget reading pages that do not help. We rank candidate URLs and passages with embeddings before reading and extract page text with a small reader model, cutting tokens per answer by 41% at equal accuracy on multi-hop web questions.',
    link: 'https://arxiv.org/abs/2507.09218',
    date: '2025/07/15',
    paperImage: image('deepsearch-reading'),
  },
  {
    id: 'embeddings-v4-universal',
    models: ['embeddings-v4'],
    title: 'Universal Embeddings for Multimodal, Multilingual Retrieval',
    summary:
      'Embeddings v4 is a 3.8B-parameter model built on a vision-language backbone that embeds text, images and visually rich documents into one space. Task-specific adapters and a choice of single-vector or multi-vector output let one model serve semantic search, code search and screenshot retrieval.',
    link: 'https://arxiv.org/abs/2506.14480',
    date: '2025/06/24',
    paperImage: image('embeddings-v4-universal'),
    conference: 'NeurIPS 2025',
  },
  {
    id: 'reranker-m0-visual',
    models: ['reranker-m0'],
    title: 'Reranking Visual Documents with a Multimodal Language Model',
    summary:
      'Many documents carry their meaning in layout, charts and screenshots that text extraction loses. Reranker m0 scores query–page pairs directly from page images and text, improving visual document retrieval by 9 points nDCG@5 over text-only rerankers.',
    link: 'https://arxiv.org/abs/2504.05536',
    date: '2025/04/10',
    paperImage: image('reranker-m0-visual'),
    conference: 'SIGIR 2025',
  },
  {
    id: 'readerlm-v2-structured',
    models: ['readerlm-v2'],
    title: 'ReaderLM-v2: Small Language Model for HTML to Markdown and JSON',
    summary:
      'ReaderLM-v2 is a 1.5B-parameter model that converts raw HTML of up to 512K tokens into Markdown, or into JSON that follows a given schema. A three-stage data pipeline with self-correction and contrastive loss against degeneration lets it outperform models twenty times its size on extraction quality.',
    link: 'https://arxiv.org/abs/2503.02814',
    date: '2025/03/04',
    paperImage: image('readerlm-v2-structured'),
    conference: 'ACL 2025',
  },
  {
    id: 'reranker-distillation',
    models: ['reranker-v2-base-multilingual'],
    title: 'Distilling Large Rerankers into Fast Multilingual Cross-Encoders',
    summary:
      'We distil relevance judgements from a large teacher into a 278M-parameter cross-encoder covering more than 100 languages. Flash attention and a 1024-token window make it six times faster than its teacher while keeping 96% of its quality on multilingual benchmarks.',
    link: 'https://arxiv.org/abs/2501.13792',
    date: '2025/01/20',
    paperImage: image('reranker-distillation'),
  },
  {
    id: 'clip-v2-multilingual',
    models: ['clip-v2'],
    title: 'CLIP v2: Multilingual Multimodal Embeddings for Text and Images',
    summary:
      'CLIP v2 aligns images with text in 89 languages while keeping strong text-to-text retrieval, so one model serves both. Matryoshka representation learning lets users truncate its 1024-dimensional vectors to 64 dimensions with little loss.',
    link: 'https://arxiv.org/abs/2412.06147',
    date: '2024/12/12',
    paperImage: image('clip-v2-multilingual'),
    conference: 'ICLR 2025',
  },
  {
    id: 'reader-lm-html',
    models: ['reader-lm-0.5b', 'reader-lm-1.5b'],
    title: 'Small Language Models Can Clean the Web: HTML to Markdown at 256K Tokens',
    summary:
      'Rule-based HTML converters break on modern pages full of scripts and nested layout. We train 0.5B and 1.5B models to copy the readable content of a page into Markdown and show that, with a long context, small models beat heuristics and large general-purpose models on this selective-copy task.',
    link: 'https://arxiv.org/abs/2410.12659',
    date: '2024/10/14',
    paperImage: image('reader-lm-html'),
    conference: 'WWW 2025',
  },
  {
    id: 'embeddings-v3-lora',
    models: ['embeddings-v3'],
    title: 'Embeddings v3: Multilingual Embeddings with Task LoRA',
    summary:
      'Embeddings v3 is a 570M-parameter multilingual model with an 8192-token context and five task-specific LoRA adapters for retrieval, clustering, classification and text matching. It leads multilingual benchmarks for its size and supports Matryoshka truncation of its 1024 dimensions.',
    link: 'https://arxiv.org/abs/2409.13306',
    date: '2024/09/16',
    paperImage: image('embeddings-v3-lora'),
    conference: 'EMNLP 2024',
  },
  {
    id: 'late-chunking',
    models: ['embeddings-v3', 'embeddings-v2-base-en'],
    title: 'Late Chunking: Contextual Chunk Embeddings Using Long-Context Embedding Models',
    summary:
      'Chunking a document before embedding it loses the context that links chunks, such as what a pronoun refers to. Late chunking embeds the whole document first and pools token vectors per chunk afterwards, improving retrieval without any extra training.',
    link: 'https://arxiv.org/abs/2409.05522',
    date: '2024/09/07',
    paperImage: image('late-chunking'),
  },
  {
    id: 'colbert-v2-late-interaction',
    models: ['colbert-v2'],
    title: 'ColBERT v2: A General-Purpose Multilingual Late Interaction Retriever',
    summary:
      'We extend late-interaction retrieval to 89 languages and an 8192-token context. Token vectors of 128 dimensions, reducible to 64, keep the index small while the model rivals cross-encoders when used as a reranker.',
    link: 'https://arxiv.org/abs/2408.18741',
    date: '2024/08/30',
    paperImage: image('colbert-v2-late-interaction'),
    conference: 'ECIR 2025',
  },
  {
    id: 'multitask-bilingual',
    models: ['embeddings-v2-base-en'],
    title: 'Multi-Task Contrastive Learning for 8192-Token Bilingual Text Embeddings',
    summary:
      'We show that bilingual embedding models trained on carefully balanced multi-task data beat massively multilingual ones in their two languages. The recipe, shared with our English base model, mixes retrieval, similarity and classification objectives in one training run.',
    link: 'https://arxiv.org/abs/2402.15228',
    date: '2024/02/26',
    paperImage: image('multitask-bilingual'),
    conference: 'ICML 2024',
  },
  {
    id: 'embeddings-v2-long',
    models: ['embeddings-v2-base-en'],
    title: '8192-Token General-Purpose Text Embeddings for Long Documents',
    summary:
      'Most open embedding models stopped at 512 tokens. Using ALiBi positional biases in a BERT-style encoder, Embeddings v2 trains at 512 tokens and extrapolates to 8192, matching closed models on MTEB while embedding whole documents at once.',
    link: 'https://arxiv.org/abs/2310.17504',
    date: '2023/10/30',
    paperImage: image('embeddings-v2-long'),
    conference: 'EMNLP 2023',
  },
]

/** Newest first; yyyy/mm/dd strings sort chronologically as text. */
export function sortPapersNewestFirst(list: readonly Paper[]): Paper[] {
  return [...list].sort((a, b) => b.date.localeCompare(a.date) || a.id.localeCompare(b.id))
}

export const papers = sortPapersNewestFirst(data)

export function papersForModel(slug: string) {
  return papers.filter((p) => p.models.includes(slug))
}
