/**
 * Where bulk-job files live: the local data directory by default, any S3-compatible store when configured.
 * Keys are paths like `bulk/<job id>/input.jsonl`; writes replace an object whole, so a batch written again
 * after a crash leaves the same file.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3'
  /** Stores `body` under `key`, streaming it (never held whole); resolves to the bytes written. */
  write(key: string, body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>, contentType: string): Promise<number>
  /** The object's bytes as they are read; `ObjectMissing` when there is none. */
  read(key: string): Promise<AsyncIterable<Uint8Array>>
  /** Removes the objects (missing ones are fine). */
  remove(keys: string[]): Promise<void>
  /** The objects whose keys start with `prefix` (a folder, ending in `/`), with when each was written. */
  list(prefix: string): Promise<Array<{ key: string; modifiedAt: Date }>>
  /**
   * A URL that fetches the object until `expiresAt` without credentials, where the store can sign one (S3);
   * `undefined` when the app serves the object itself behind its own signed link (local files).
   */
  presignedUrl(key: string, options: { expiresAt: Date; fileName: string }): Promise<string | undefined>
}

export class ObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`)
    this.name = 'ObjectMissing'
  }
}
