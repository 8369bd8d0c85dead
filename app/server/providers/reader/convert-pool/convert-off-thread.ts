import { availableParallelism } from 'node:os'
import type { ReaderPage } from '~/contracts/reader'
import { serverEnv, type ServerEnv } from '../../../env'
import { onShutdown } from '../../../lifecycle'
import { errorFields, log } from '../../../log'
import type { ConversionRequest } from '../convert/convert'
import { ConversionPool, type PoolSettings } from './pool'

/** The pool's size and limits as the environment sets them (README, "Reader and deep search"). */
export function poolSettingsOf(
  env: Pick<ServerEnv, 'READER_CONVERT_THREADS' | 'READER_CONVERT_TIMEOUT_SECONDS' | 'READER_CONVERT_MEMORY_MB'>,
  source: string,
): PoolSettings {
  return {
    source,
    threads: env.READER_CONVERT_THREADS ?? Math.max(2, availableParallelism() - 1),
    timeoutMs: env.READER_CONVERT_TIMEOUT_SECONDS * 1000,
    memoryMb: env.READER_CONVERT_MEMORY_MB,
  }
}

let pool: Promise<ConversionPool> | undefined

/** The threads' code (1.7 MB bundled, with the tokenizer's tables) is loaded only when the pool starts. */
async function startPool(): Promise<ConversionPool> {
  const { default: source } = await import('./thread.ts?thread')
  const started = new ConversionPool(poolSettingsOf(serverEnv(), source))
  onShutdown(async () => {
    pool = undefined
    await started.close()
  }, 'work')
  return started
}

/**
 * Starts the pool before any page needs it (the server does at start): loading the threads' code and
 * spawning them holds the event loop for 100 ms or more, better spent then than in a visitor's request.
 */
export function startConversionPool(): void {
  void conversionPool().then(
    (started) => started.warm(),
    (error: unknown) => log('error', 'the reader conversion pool did not start', { error: errorFields(error) }),
  )
}

function conversionPool(): Promise<ConversionPool> {
  pool ??= startPool().catch((error: unknown) => {
    pool = undefined
    throw error
  })
  return pool
}

/**
 * The reader's one way to convert a page it fetched: on a thread of the pool, within its time and memory
 * limits (PageNotRead 'convert-timeout', 'too-complex' beyond them), with the page's output tokens counted
 * there too. The pool stops with the server.
 */
export async function convertOffThread(
  request: ConversionRequest,
  options: { signal?: AbortSignal } = {},
): Promise<ReaderPage> {
  return (await conversionPool()).convert(request, options)
}
