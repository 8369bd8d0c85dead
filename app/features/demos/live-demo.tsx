import { lazy, Suspense } from 'react'
import type { ProductKey } from '#content/schemas'
import { useUserStore } from '~/lib/settings'
import { DemoBoundary } from './demo-boundary'
import type { DemoName } from './demo-layout'
import { DemoSkeleton } from './demo-skeleton'
import { useNearViewport } from './use-near-viewport'

// One chunk per demo, fetched only on the page that shows it.
const demos = {
  embeddings: lazy(() => import('./embeddings/embeddings-demo').then((m) => ({ default: m.EmbeddingsDemo }))),
  rerank: lazy(() => import('./rerank/rerank-demo').then((m) => ({ default: m.RerankDemo }))),
  segment: lazy(() => import('./segment/segment-demo').then((m) => ({ default: m.SegmentDemo }))),
  classify: lazy(() => import('./classify/classify-demo').then((m) => ({ default: m.ClassifyDemo }))),
  reader: lazy(() => import('./reader/reader-demo').then((m) => ({ default: m.ReaderDemo }))),
  deepsearch: lazy(() => import('./deepsearch/deepsearch-demo').then((m) => ({ default: m.DeepSearchDemo }))),
  serp: lazy(() => import('./serp/serp-demo').then((m) => ({ default: m.SerpDemo }))),
} satisfies Record<DemoName, unknown>

/**
 * The demo each product page shows. Fine-tuning serves the base embedding model through the same API, so
 * its page tries that; the SERP demo is deep search composing a results page.
 */
export function demoFor(product: ProductKey): DemoName {
  const byProduct: Record<ProductKey, DemoName> = {
    reader: 'reader',
    embeddings: 'embeddings',
    'fine-tuning': 'embeddings',
    reranker: 'rerank',
    deepsearch: 'deepsearch',
    'llm-serp-demo': 'serp',
    segmenter: 'segment',
    classifier: 'classify',
  }
  return byProduct[product]
}

/**
 * The server renders the skeleton; the browser fetches the demo's chunk when the section nears the
 * viewport, or at once when the visitor asked for requests on load (enableAutoAPIRequest). Both are
 * false while hydrating (the store's server snapshot is the defaults), so hydration always matches.
 */
export function LiveDemo({
  demo,
  apiBaseUrl,
}: {
  demo: DemoName
  /** PUBLIC_API_BASE_URL, for the curl. */ apiBaseUrl: string
}) {
  const { ref, near } = useNearViewport<HTMLDivElement>()
  const { settings } = useUserStore()
  const Demo = demos[demo]
  return (
    // Near the viewport, a prerendered page starts its client runtime without waiting for a tap
    // (app/server/http/deferred-runtime.ts).
    <div ref={ref} data-demo={demo} data-needs-runtime>
      {near || settings.enableAutoAPIRequest ? (
        <DemoBoundary>
          <Suspense fallback={<DemoSkeleton demo={demo} />}>
            <Demo apiBaseUrl={apiBaseUrl} />
          </Suspense>
        </DemoBoundary>
      ) : (
        <DemoSkeleton demo={demo} />
      )}
    </div>
  )
}

/** A product page's demo (handed to the page by its route, so marketing imports no demo). */
export function ProductDemo({ product, apiBaseUrl }: { product: ProductKey; apiBaseUrl: string }) {
  return <LiveDemo demo={demoFor(product)} apiBaseUrl={apiBaseUrl} />
}
