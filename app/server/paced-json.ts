/**
 * `JSON.stringify` of an answer in paced slices (./paced.ts): a segmentation of 1,000,000 characters with
 * its tokens is 8 MB of JSON, a third of a second of serialising in one call. The text is the same as
 * `JSON.stringify`'s. Arrays are written in batches sized to about BATCH_CHARS of output each (learnt from
 * the elements written so far), and an element that is itself large is walked into, so no single call to
 * `JSON.stringify` writes much more than a batch, whatever the answer's shape.
 */
import { runPaced } from './paced'

/**
 * JSON already written, put in an answer as it is: a part whose objects would otherwise live (and be
 * traced by the collector) until the whole answer is serialised, as the segmenter's half a million tokens.
 */
export class JsonText {
  constructor(readonly text: string) {}
}

const BATCH_CHARS = 32_768
const MAX_BATCH = 4096

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false
  const prototype = Object.getPrototypeOf(value)
  return (
    (prototype === Object.prototype || prototype === null) &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  )
}

const isWalked = (value: unknown) => Array.isArray(value) || isPlainObject(value) || value instanceof JsonText

export async function stringifyPaced(value: unknown): Promise<string> {
  const writer = new Writer()
  await runPaced(writer.value(value))
  return writer.parts.join('')
}

class Writer {
  readonly parts: string[] = []
  /** Characters written so far. */
  written = 0

  private push(text: string) {
    this.parts.push(text)
    this.written += text.length
  }

  *value(value: unknown): Generator<void, void, void> {
    if (value instanceof JsonText) this.push(value.text)
    else if (Array.isArray(value)) yield* this.array(value)
    else if (isPlainObject(value)) yield* this.object(value)
    else this.push(JSON.stringify(value) ?? 'null')
  }

  private *array(value: unknown[]): Generator<void, void, void> {
    this.push('[')
    let batch = 1
    for (let at = 0; at < value.length;) {
      if (at > 0) this.push(',')
      const before = this.written
      const end = Math.min(value.length, at + batch)
      // One element at a time while they are large (each is walked into); small ones in one call, as an
      // array, so `undefined` and functions become null as JSON.stringify makes them.
      if (batch === 1 && isWalked(value[at])) yield* this.value(value[at])
      else this.push(JSON.stringify(value.slice(at, end)).slice(1, -1))
      const perElement = Math.max(1, (this.written - before) / (end - at))
      batch = Math.max(1, Math.min(MAX_BATCH, Math.floor(BATCH_CHARS / perElement)))
      at = end
      yield
    }
    this.push(']')
  }

  private *object(value: Record<string, unknown>): Generator<void, void, void> {
    this.push('{')
    let first = true
    for (const key of Object.keys(value)) {
      const field = value[key]
      // Left out, as JSON.stringify leaves out undefined, functions and symbols.
      if (field === undefined || typeof field === 'function' || typeof field === 'symbol') continue
      this.push(`${first ? '' : ','}${JSON.stringify(key)}:`)
      yield* this.value(field)
      first = false
    }
    this.push('}')
  }
}
