import { availableParallelism } from 'node:os'
import { Worker } from 'node:worker_threads'
import { onShutdown } from '../../lifecycle'
import type { InputBatch } from './input-batches'
import { resultLines } from './result-lines'

/**
 * Writes a batch's result lines on threads of their own, so the engine computes the next batch meanwhile:
 * turning vectors of 1,024 floats into text costs about as much as computing them with the built-in engine
 * (BENCHMARKS.md). Each thread runs `resultLines` itself (its source, which uses nothing from outside), so
 * the format has one definition and there is no file to bundle.
 */
const source = `
  const { parentPort } = require('node:worker_threads')
  const resultLines = ${resultLines.toString()}
  parentPort.on('message', ({ id, batch, vectors }) => {
    try {
      const bytes = resultLines(batch, vectors)
      parentPort.postMessage({ id, bytes }, [bytes.buffer])
    } catch (error) {
      parentPort.postMessage({ id, error: String((error && error.stack) || error) })
    }
  })`

type Call = { resolve: (bytes: Uint8Array) => void; reject: (error: Error) => void }
let threads: Worker[] | undefined
let nextId = 0
const waiting = new Map<number, Call>()

function startThreads(): Worker[] {
  // As many as the cores beside the one the engine runs on (at least one).
  const count = Math.max(1, availableParallelism() - 1)
  const started = Array.from({ length: count }, () => {
    const worker = new Worker(source, { eval: true })
    worker.unref()
    worker.on('message', ({ id, bytes, error }: { id: number; bytes?: Uint8Array; error?: string }) => {
      const call = waiting.get(id)
      waiting.delete(id)
      if (error || !bytes) call?.reject(new Error(`result lines: ${error}`))
      else call?.resolve(bytes)
    })
    worker.on('error', (error) => {
      for (const call of waiting.values()) call.reject(error as Error)
      waiting.clear()
      threads = undefined
    })
    return worker
  })
  onShutdown(async () => {
    await Promise.all(started.map((worker) => worker.terminate()))
    threads = undefined
  }, 'connections')
  return started
}

function format(thread: Worker, batch: Pick<InputBatch, 'first' | 'ids'>, vectors: Float32Array[]) {
  const id = nextId++
  return new Promise<Uint8Array>((resolve, reject) => {
    waiting.set(id, { resolve, reject })
    // Copied, not transferred: an engine's vectors may share a buffer with memory it keeps.
    thread.postMessage({ id, batch, vectors })
  })
}

/** The batch's result lines, its vectors shared out between the threads and the pieces joined in order. */
export async function formatResultLines(batch: InputBatch, vectors: Float32Array[]): Promise<Uint8Array> {
  threads ??= startThreads()
  const share = Math.ceil(vectors.length / threads.length)
  const pieces = await Promise.all(
    threads.map((thread, n) => {
      const from = n * share
      const piece = { first: batch.first + from, ids: batch.ids.slice(from, from + share) }
      return format(thread, piece, vectors.slice(from, from + share))
    }),
  )
  if (pieces.length === 1) return pieces[0]
  const joined = new Uint8Array(pieces.reduce((sum, piece) => sum + piece.byteLength, 0))
  let at = 0
  for (const piece of pieces) {
    joined.set(piece, at)
    at += piece.byteLength
  }
  return joined
}
