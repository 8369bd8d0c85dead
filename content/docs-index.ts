import { msg } from '@lingui/core/macro'
import type { DocsIndexEntry, DocsSection } from './schemas'

/**
 * The API documentation's table of contents, in reading order: each entry names a Markdown file of
 * `content/docs/` by its slug. Adding a page is adding its file and its entry here (content/check.ts refuses
 * a file without an entry and an entry without a file). Titles and descriptions are translated; the bodies
 * stay English.
 */
export const docsIndex: DocsSection[] = [
  {
    id: 'get-started',
    title: msg`Get started`,
    pages: [
      {
        slug: 'quickstart',
        title: msg`Quickstart`,
        description: msg`Get a key and make your first calls in a minute.`,
        paths: [],
      },
      {
        slug: 'authentication',
        title: msg`Authentication and keys`,
        description: msg`How to send your key, get one, check its balance and revoke it.`,
        paths: ['/api/v1/api_key', '/api/v1/captcha', '/api/v1/account'],
      },
    ],
  },
  {
    id: 'apis',
    title: msg`APIs`,
    pages: [
      {
        slug: 'embeddings',
        title: msg`Embeddings`,
        description: msg`Vectors for texts and images, with every option and error.`,
        paths: ['/v1/embeddings'],
      },
      {
        slug: 'rerank',
        title: msg`Reranker`,
        description: msg`Sort documents by their relevance to a query.`,
        paths: ['/v1/rerank'],
      },
      {
        slug: 'classify',
        title: msg`Classify and train`,
        description: msg`Zero-shot classification, and classifiers you train on your own examples.`,
        paths: ['/v1/classify', '/v1/train', '/v1/classifiers', '/api/v1/classifiers'],
      },
      {
        slug: 'segment',
        title: msg`Segmenter`,
        description: msg`Count tokens exactly and cut long texts into chunks.`,
        paths: ['/v1/segment'],
      },
      {
        slug: 'reader',
        title: msg`Reader`,
        description: msg`Any URL as Markdown, HTML, text or JSON, read directly or in a browser.`,
        paths: ['/r', '/v1/reader'],
      },
      {
        slug: 'search',
        title: msg`Search`,
        description: msg`A query in, the top results out, each read into Markdown, as one call.`,
        paths: ['/s'],
      },
      {
        slug: 'deepsearch',
        title: msg`DeepSearch`,
        description: msg`Questions answered by searching and reading, with cited sources, in OpenAI's chat format.`,
        paths: ['/v1/chat/completions', '/v1/responses'],
      },
      {
        slug: 'bulk-embeddings',
        title: msg`Bulk embeddings`,
        description: msg`A file of texts in, a file of vectors out, as a job that survives restarts.`,
        paths: ['/v1/bulk-embeddings'],
      },
      {
        slug: 'batches',
        title: msg`Batch API`,
        description: msg`OpenAI's Batch API: a file of requests run at half price, with output and error files.`,
        paths: ['/v1/files', '/v1/batches'],
      },
      {
        slug: 'models',
        title: msg`Models`,
        description: msg`Which models the APIs serve, their ids and aliases, and the options each honours.`,
        paths: ['/v1/models', '/api/v1/models'],
      },
    ],
  },
  {
    id: 'using-the-api',
    title: msg`Using the API`,
    pages: [
      {
        slug: 'rate-limits',
        title: msg`Rate limits and headers`,
        description: msg`Limits per key and minute, the headers every answer carries, and request ids.`,
        paths: [],
      },
      {
        slug: 'errors',
        title: msg`Errors`,
        description: msg`Every error status, what it means and what to do.`,
        paths: [],
      },
    ],
  },
  {
    id: 'account',
    title: msg`Account and billing`,
    pages: [
      {
        slug: 'billing',
        title: msg`Billing`,
        description: msg`Token packs, auto-recharge, balance alerts, transfers and invoices.`,
        paths: ['/api/v1/product', '/api/v1/checkout_session', '/api/v1/auto_recharge', '/api/v1/billing'],
      },
      {
        slug: 'organisations',
        title: msg`Organisations`,
        description: msg`Teams with roles, invitations by e-mail, projects and one shared balance.`,
        paths: ['/api/v1/account/organisations', '/api/v1/account/keys/{keyId}/project'],
      },
      {
        slug: 'key-controls',
        title: msg`Per-key controls`,
        description: msg`Spending caps, allowed products, models and addresses, and expiry for each key.`,
        paths: ['/api/v1/account/keys/{keyId}/controls', '/api/v1/account/keys/{keyId}/limits'],
      },
      {
        slug: 'admin-api',
        title: msg`Administration API`,
        description: msg`Manage members, projects, keys and their limits, and read usage and costs, from a script.`,
        paths: ['/v1/organization', '/api/v1/account/admin_keys'],
      },
      {
        slug: 'webhooks',
        title: msg`Webhooks`,
        description: msg`Signed events for low balances, finished jobs, payments and keys, with retries and a log.`,
        paths: ['/api/v1/account/webhooks'],
      },
      {
        slug: 'request-log',
        title: msg`Request log, usage and audit`,
        description: msg`Every metered request, usage and cost per day, and the audit trail of changes.`,
        paths: [
          '/api/v1/requests',
          '/api/v1/audit',
          '/api/v1/billing/usage_summary',
          '/api/v1/billing/total_consumption',
        ],
      },
    ],
  },
  {
    id: 'self-hosting',
    title: msg`Self-hosting`,
    pages: [
      {
        slug: 'self-hosting',
        title: msg`Run your own server`,
        description: msg`Serve these APIs from your own machine, with your own models and settings.`,
        paths: ['/internal/v1/usage'],
      },
    ],
  },
]

/** Every page in reading order. */
export const docsEntries: DocsIndexEntry[] = docsIndex.flatMap((section) => section.pages)

export function getDocsEntry(slug: string): DocsIndexEntry | undefined {
  return docsEntries.find((entry) => entry.slug === slug)
}

const coversPath = (prefix: string, path: string) => path === prefix || path.startsWith(`${prefix}/`)

/** The page that documents an API path (`/v1/classifiers/{id}` → classify): the entry whose path prefix is longest. */
export function docsEntryForPath(path: string): DocsIndexEntry | undefined {
  let best: { entry: DocsIndexEntry; length: number } | undefined
  for (const entry of docsEntries)
    for (const prefix of entry.paths)
      if (coversPath(prefix, path) && prefix.length > (best?.length ?? 0)) best = { entry, length: prefix.length }
  return best?.entry
}
