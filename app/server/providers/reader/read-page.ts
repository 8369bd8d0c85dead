import { readerLimits, type ReaderPage } from '~/contracts/reader'
import type { ServerEnv } from '../../env'
import { isPublicAddress } from './address-policy'
import type { ConversionRequest, ConvertOptions } from './convert/convert'
import { convertOffThread } from './convert-pool/convert-off-thread'
import { pageFetcher, type FetchLimits } from './fetcher'
import { pageKindOf } from './page-rules'

export type { ConvertOptions }

/** How often a page still downloading is converted again for a streaming caller. */
export const SNAPSHOT_INTERVAL_MS = 250

/** The fetch limits the environment sets: public addresses only unless READER_ALLOW_PRIVATE_NETWORKS=true. */
export function fetchLimitsOf(
  env: Pick<ServerEnv, 'READER_ALLOW_PRIVATE_NETWORKS' | 'READER_DNS_SERVERS'>,
  timeoutSeconds: number,
  signal?: AbortSignal,
): FetchLimits {
  return {
    allows: env.READER_ALLOW_PRIVATE_NETWORKS ? () => true : isPublicAddress,
    dnsServers: env.READER_DNS_SERVERS,
    timeoutMs: timeoutSeconds * 1000,
    maxBytes: readerLimits.maxPageBytes,
    maxRedirects: readerLimits.maxRedirects,
    signal,
  }
}

/** `<meta charset>` or its http-equiv form, in the first bytes of a page whose headers named no charset. */
function declaredCharset(head: Uint8Array): string | undefined {
  const text = new TextDecoder('latin1').decode(head.subarray(0, 2048))
  return text.match(/<meta[^>]+charset\s*=\s*["']?([\w-]+)/i)?.[1]?.toLowerCase()
}

function decoderFor(charset: string | undefined): TextDecoder {
  try {
    return new TextDecoder(charset ?? 'utf-8')
  } catch {
    // An unknown label: UTF-8 is what most such pages turn out to be.
    return new TextDecoder('utf-8')
  }
}

/**
 * Fetches a page within `limits` and converts it on a conversion thread (never on the event loop), with its
 * output tokens. `onPartial`, when given, receives conversions of the page as downloaded so far (at most every
 * SNAPSHOT_INTERVAL_MS), each completer than the last, before the whole page is answered; it is awaited, so a
 * slow consumer (or a busy pool) slows the download rather than piling up snapshots.
 */
export async function readPage(
  url: URL,
  options: ConvertOptions,
  limits: FetchLimits,
  onPartial?: (page: ReaderPage) => Promise<void>,
): Promise<ReaderPage> {
  const fetched = await (await pageFetcher())(url, limits)
  const kind = pageKindOf(fetched.mediaType)
  const convert = (source: string) => {
    const request: ConversionRequest = { source, kind, url: fetched.url, options }
    return convertOffThread(request, { signal: limits.signal })
  }
  let decoder: TextDecoder | undefined
  let pending: Uint8Array[] = []
  let text = ''
  let lastSnapshot = Date.now()
  let snapshotLength = 0
  for await (const chunk of fetched.body) {
    if (!decoder) {
      pending.push(chunk)
      const head = concat(pending)
      if (head.byteLength < 1024) continue
      decoder = decoderFor(fetched.charset ?? (kind === 'html' ? declaredCharset(head) : undefined))
      text += decoder.decode(head, { stream: true })
      pending = []
    } else text += decoder.decode(chunk, { stream: true })
    if (
      onPartial &&
      kind === 'html' &&
      text.length > snapshotLength &&
      Date.now() - lastSnapshot >= SNAPSHOT_INTERVAL_MS
    ) {
      await onPartial(await convert(text))
      snapshotLength = text.length
      lastSnapshot = Date.now()
    }
  }
  if (!decoder) {
    const head = concat(pending)
    decoder = decoderFor(fetched.charset ?? (kind === 'html' ? declaredCharset(head) : undefined))
    text += decoder.decode(head, { stream: true })
  }
  text += decoder.decode()
  return convert(text)
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]
  const all = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0))
  let at = 0
  for (const chunk of chunks) {
    all.set(chunk, at)
    at += chunk.byteLength
  }
  return all
}
