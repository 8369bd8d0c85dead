import { Trans, useLingui } from '@lingui/react/macro'
import type { EmbeddingsAnswer } from '~/contracts/search'
import { similarityMatrix } from '../lib/cosine'
import { vectorOf } from '../lib/vectors'
import { SimilarityMatrix } from './similarity-matrix'

const shownValues = 4
const nonZero = (vector: number[]) => vector.filter((x) => x !== 0).length
/** The demo asks for one vector per input in one encoding, so `embedding` is a list or base64 text. */
const single = (item: EmbeddingsAnswer['data'][number]) =>
  typeof item.embedding === 'string' || Array.isArray(item.embedding) ? item.embedding : []

/** The vectors summarised: their size, the first few values of each, and how alike they are. */
export function EmbeddingsResult({ data, texts }: { data: EmbeddingsAnswer; texts: string[] }) {
  const { i18n, t } = useLingui()
  const vectors = [...data.data].sort((a, b) => a.index - b.index).map((item) => vectorOf(single(item)))
  const dimensions = vectors[0]?.length ?? 0
  const count = vectors.length
  const nonZeroCount = (vector: number[]) => i18n.number(nonZero(vector))
  const value = (x: number) =>
    i18n.number(x, { minimumFractionDigits: 4, maximumFractionDigits: 4, signDisplay: 'always' })
  return (
    <div className="flex flex-col gap-5">
      <dl data-testid="embeddings-summary" className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex gap-1.5">
          <dt className="text-muted-foreground">
            <Trans>Vectors</Trans>
          </dt>
          <dd className="font-semibold">{count}</dd>
        </div>
        <div className="flex gap-1.5">
          <dt className="text-muted-foreground">
            <Trans>Dimensions</Trans>
          </dt>
          <dd data-testid="embeddings-dimensions" className="font-semibold">
            {dimensions}
          </dd>
        </div>
      </dl>
      <ol className="flex flex-col gap-2 text-sm">
        {vectors.map((vector, i) => (
          <li key={i} className="min-w-0">
            <p className="truncate">
              <span className="mr-2 font-mono text-xs text-muted-foreground">#{i + 1}</span>
              {texts[i]}
            </p>
            <p className="flex gap-3 text-xs text-muted-foreground">
              <span translate="no" className="truncate font-mono">
                [{vector.slice(0, shownValues).map(value).join(', ')}, …]
              </span>
              {/* A hashed n-gram vector is mostly zeros; how many are not tells more than the first few. */}
              <span className="shrink-0">{t`${nonZeroCount(vector)} non-zero`}</span>
            </p>
          </li>
        ))}
      </ol>
      {count > 1 && <SimilarityMatrix matrix={similarityMatrix(vectors)} texts={texts} />}
    </div>
  )
}
