import { Plural, Trans, useLingui } from '@lingui/react/macro'
import type { SegmentAnswer } from '~/contracts/search'
import { TokenStrip, type SegmentToken } from './token-strip'

/** With chunks the API sends one token list per chunk; without, one list for the content. */
function isPerChunk(tokens: SegmentToken[] | SegmentToken[][]): tokens is SegmentToken[][] {
  return tokens.length > 0 && Array.isArray(tokens[0][0])
}

/** The token count, then the content (or each chunk) with its tokens highlighted. */
export function SegmentResult({ data, content }: { data: SegmentAnswer; content: string }) {
  const { t } = useLingui()
  const tokens = data.tokens as SegmentToken[] | SegmentToken[][] | undefined
  const perChunk = tokens && isPerChunk(tokens) ? tokens : undefined
  const count = data.num_tokens
  return (
    <div className="flex min-w-0 flex-col gap-4">
      <p className="text-sm">
        <Trans>
          <strong data-testid="segment-count" data-value={count}>
            <Plural value={count} one="# token" other="# tokens" />
          </strong>{' '}
          with <code translate="no">{data.tokenizer}</code>
        </Trans>
      </p>
      <p className="text-xs text-muted-foreground">
        <Trans>Hover a token, or focus the text and use the arrow keys, to see its ids.</Trans>
      </p>
      {data.chunks ? (
        <>
          <p className="text-sm">
            <Plural value={data.num_chunks ?? data.chunks.length} one="# chunk" other="# chunks" />
          </p>
          <ol data-testid="segment-chunks" className="flex flex-col gap-4">
            {data.chunks.map((chunk, i) => {
              const n = i + 1
              return (
                <li key={i} className="flex min-w-0 flex-col gap-1.5">
                  <h4 className="text-xs font-semibold text-muted-foreground">
                    <Trans>Chunk {n}</Trans>
                  </h4>
                  {perChunk?.[i] ? (
                    <TokenStrip tokens={perChunk[i]} label={t`Tokens of chunk ${n}`} />
                  ) : (
                    <p className="rounded-md border bg-background p-3 text-sm whitespace-pre-wrap">{chunk}</p>
                  )}
                </li>
              )
            })}
          </ol>
        </>
      ) : tokens && !perChunk ? (
        <TokenStrip tokens={tokens as SegmentToken[]} label={t`Tokens`} />
      ) : (
        <p className="rounded-md border bg-background p-3 text-sm whitespace-pre-wrap">{content}</p>
      )}
    </div>
  )
}
