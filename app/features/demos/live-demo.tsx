import { lazy, Suspense } from 'react'
import type { ProductKey } from '#content/schemas'
import { useUserStore } from '~/lib/settings'
import { DemoBoundary } from './demo-boundary'
import { DemoSkeleton } from './demo-skeleton'
import { useNearViewport } from './use-near-viewport'

// One chunk per demo, fetched only on the page that shows it.
const demos = {
  embeddings: lazy(() => import('./embeddings/embeddings-demo').then((m) => ({ default: m.EmbeddingsDemo }))),
  rerank: lazy(() => import('./rerank/rerank-demo').then((m) => ({ default: m.RerankDemo }))),
  segment: lazy(() => import('./segment/segment-demo').then((m) => ({ default: m.SegmentDemo }))),
  classify: lazy(() => import('./classify/classify-demo').then((m) => ({ default: m.ClassifyDemo }))),
}
export type DemoName = keyof typeof demos

/**
 * The demo a product page shows, if it has one. Fine-tuning serves the base embedding model through the
 * same API, so its page tries that; reader, DeepSearch and the SERP demo have none yet.
 */
export function demoFor(product: ProductKey): DemoName | undefined {
  const byProduct: Partial<Record<ProductKey, DemoName>> = {
    embeddings: 'embeddings',
    'fine-tuning': 'embeddings',
    reranker: 'rerank',
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
    <div ref={ref} data-demo={demo}>
      {near || settings.enableAutoAPIRequest ? (
        <DemoBoundary>
          <Suspense fallback={<DemoSkeleton />}>
            <Demo apiBaseUrl={apiBaseUrl} />
          </Suspense>
        </DemoBoundary>
      ) : (
        <DemoSkeleton />
      )}
    </div>
  )
}
