import { msg } from '@lingui/core/macro'
import type { MessageDescriptor } from '@lingui/core'
import type { ProductKey } from '#content/schemas'

export interface Highlight {
  title: MessageDescriptor
  body: MessageDescriptor
}

/** Three things worth knowing about each product, from the API contracts and the papers. */
export const highlights: Record<ProductKey, Highlight[]> = {
  reader: [
    {
      title: msg`Markdown, HTML, text or JSON`,
      body: msg`Choose the output format per request. JSON adds the title, description, links and images next to the content.`,
    },
    {
      title: msg`Only the part you need`,
      body: msg`Keep or remove parts of a page with CSS selectors, and set a timeout for slow sites.`,
    },
    {
      title: msg`Small reader models`,
      body: msg`ReaderLM-v2 converts HTML into Markdown or schema-following JSON with up to 512K tokens of context.`,
    },
  ],
  embeddings: [
    {
      title: msg`Tasks built in`,
      body: msg`Say whether you embed queries, passages, text for matching or for classification; each task has its own adapter.`,
    },
    {
      title: msg`Dimensions you choose`,
      body: msg`Truncate vectors to fit your vector store with little loss, and get them as floats, base64 or binary.`,
    },
    {
      title: msg`Late chunking`,
      body: msg`Embed a long document once and pool each chunk afterwards, so chunks keep the meaning of their surroundings.`,
    },
  ],
  reranker: [
    {
      title: msg`Listwise in one pass`,
      body: msg`Reranker v3 reads the query and up to 64 documents together and reaches 61.94 nDCG@10 on BEIR with 0.6B parameters.`,
    },
    {
      title: msg`Text and images`,
      body: msg`Reranker m0 scores screenshots, charts and scanned pages as well as plain text.`,
    },
    {
      title: msg`After any first-stage search`,
      body: msg`Send the candidates your keyword or vector search returns and get the best ones back, sorted by relevance score.`,
    },
  ],
  deepsearch: [
    {
      title: msg`Search, read, reason`,
      body: msg`The agent plans queries, reads the most promising pages and keeps going until the evidence answers the question.`,
    },
    {
      title: msg`Answers with citations`,
      body: msg`Every answer cites its sources with the URL, the exact quote and the date of the page.`,
    },
    {
      title: msg`Chat-completions compatible`,
      body: msg`Call the model deepsearch-v1 from any OpenAI-style client, streamed or not, and set the reasoning effort and token budget.`,
    },
  ],
  classifier: [
    {
      title: msg`Zero-shot`,
      body: msg`Send up to 256 label names with your inputs and get a prediction with scores, no training needed.`,
    },
    {
      title: msg`Few-shot`,
      body: msg`Train a classifier on a handful of labelled examples; it stays under your key, private or public.`,
    },
    {
      title: msg`Text and images`,
      body: msg`Classify text with Embeddings v3 and images with CLIP v2 through the same API.`,
    },
  ],
  segmenter: [
    {
      title: msg`Count before you send`,
      body: msg`Count tokens with cl100k_base, o200k_base and other common tokenizers to predict costs and context use.`,
    },
    {
      title: msg`Chunks at natural boundaries`,
      body: msg`Split long text into chunks up to a length you choose, at sentence and paragraph boundaries, with their positions.`,
    },
    {
      title: msg`Free of charge`,
      body: msg`Segmenting takes no tokens from your balance; only the rate limit applies.`,
    },
  ],
  'fine-tuning': [
    {
      title: msg`Your data, your evaluation`,
      body: msg`You provide examples and a held-out evaluation set; we report the gain on it before you switch.`,
    },
    {
      title: msg`The same API`,
      body: msg`A fine-tuned model is called exactly like its base model, under its own model name.`,
    },
    {
      title: msg`Hosted or on-premise`,
      body: msg`Serve the tuned model through our API or run it on your own infrastructure.`,
    },
  ],
  'llm-serp-demo': [
    {
      title: msg`Imagined results`,
      body: msg`A language model writes the titles, snippets and URLs it believes a search engine would return.`,
    },
    {
      title: msg`Checked against the web`,
      body: msg`Reader fetches each URL, showing which results are real and which the model made up.`,
    },
    { title: msg`No key needed`, body: msg`The demo runs in your browser for free.` },
  ],
}
