import { Worker } from 'node:worker_threads'
import { onShutdown } from '../../../lifecycle'
import { USE_LITE_DIMENSIONS, type UseLiteFiles } from './model-files'

/**
 * The encoder's transformer runs on a thread of its own at a lower priority (nice 10, as the reader's
 * converters), so a batch that takes a second never holds the event loop: the main thread only cuts texts
 * into pieces and posts them. The thread runs `serve` below, sent as its source (it uses nothing from outside
 * but what it is handed), so there is no file to bundle; the runtime is required by the path this process
 * resolved. The requires are in the source's text, where no bundler rewrites them.
 */
const source = (serve: typeof serveEncoder) => `
  const { parentPort, workerData } = require('node:worker_threads')
  try {
    const threadId = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop())
    if (Number.isInteger(threadId) && threadId > 0) require('node:os').setPriority(threadId, 10)
  } catch {}
  ;(${serve.toString()})(require(workerData.runtime), parentPort, workerData.graph)`

interface Runtime {
  setBackend(name: string): Promise<boolean>
  ready(): Promise<void>
  io: { fileSystem(path: string): unknown }
  loadGraphModel(handler: unknown): Promise<{ executeAsync(inputs: Record<string, Tensor>): Promise<Tensor> }>
  tensor2d(values: Int32Array, shape: [number, number], dtype: 'int32'): Tensor
  tensor1d(values: Int32Array, dtype: 'int32'): Tensor
}
interface Tensor {
  data(): Promise<Float32Array<ArrayBuffer>>
  dispose(): void
}
type Request = { id: number; ids: Int32Array; lengths: Int32Array }

function serveEncoder(tf: Runtime, port: import('node:worker_threads').MessagePort, graph: string) {
  const loading = (async () => {
    await tf.setBackend('wasm')
    await tf.ready()
    return tf.loadGraphModel(tf.io.fileSystem(graph))
  })()
  loading.catch(() => {})
  port.on('message', async ({ id, ids, lengths }: Request) => {
    try {
      const model = await loading
      // The graph takes a sparse batch: [row, position] of every piece, and the pieces' ids.
      const positions = new Int32Array(ids.length * 2)
      let at = 0
      lengths.forEach((length, row) => {
        for (let position = 0; position < length; position++, at++) {
          positions[2 * at] = row
          positions[2 * at + 1] = position
        }
      })
      const indices = tf.tensor2d(positions, [ids.length, 2], 'int32')
      const values = tf.tensor1d(ids, 'int32')
      const output = await model.executeAsync({ indices, values })
      const vectors = await output.data()
      indices.dispose()
      values.dispose()
      output.dispose()
      port.postMessage({ id, vectors }, [vectors.buffer])
    } catch (error) {
      port.postMessage({ id, error: String((error as Error)?.stack ?? error) })
    }
  })
}

type Call = { resolve: (vectors: Float32Array[]) => void; reject: (error: Error) => void; rows: number }

export interface EncoderThread {
  /** One unit vector per sequence of piece ids (none may be empty). */
  encode(sequences: number[][]): Promise<Float32Array[]>
}

/** The thread starts with the first call; one that fails is started anew by the next. */
export function encoderThread(files: UseLiteFiles): EncoderThread {
  let worker: Worker | undefined
  let nextId = 0
  const waiting = new Map<number, Call>()

  const start = () => {
    const started = new Worker(source(serveEncoder), {
      eval: true,
      workerData: { runtime: files.runtime, graph: files.graph },
    })
    started.unref()
    started.on('message', ({ id, vectors, error }: { id: number; vectors?: Float32Array; error?: string }) => {
      const call = waiting.get(id)
      waiting.delete(id)
      if (!call) return
      if (error || !vectors) return call.reject(new Error(`use-lite engine: ${error}`))
      call.resolve(
        Array.from({ length: call.rows }, (_, row) =>
          vectors.subarray(row * USE_LITE_DIMENSIONS, (row + 1) * USE_LITE_DIMENSIONS),
        ),
      )
    })
    const fail = (error: Error) => {
      for (const call of waiting.values()) call.reject(new Error(`use-lite engine: ${error.message}`))
      waiting.clear()
      if (worker === started) worker = undefined
    }
    started.on('error', fail)
    started.on('exit', (code) => fail(new Error(`the encoder thread exited (${code})`)))
    return started
  }
  onShutdown(async () => {
    await worker?.terminate()
    worker = undefined
  }, 'connections')

  return {
    encode(sequences) {
      worker ??= start()
      const id = nextId++
      const lengths = Int32Array.from(sequences, (sequence) => sequence.length)
      const ids = Int32Array.from(sequences.flat())
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject, rows: sequences.length })
        worker!.postMessage({ id, ids, lengths }, [ids.buffer, lengths.buffer])
      })
    },
  }
}
