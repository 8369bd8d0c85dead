import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { ObjectMissing, type ObjectStorage } from './types'

/** Files under `<DATA_DIR>/objects`. A write goes to a temporary file renamed into place, so a reader never sees half of one. */
export function localStorage(dataDir: string): ObjectStorage {
  const root = resolve(dataDir, 'objects')
  const pathOf = (key: string) => {
    const path = resolve(root, key)
    // Keys are built by the server, never by callers; this keeps a bug from ever writing outside the folder.
    if (!path.startsWith(root + sep)) throw new Error(`Storage key ${key} leaves the storage folder`)
    return path
  }
  /** Removes the folders a key's file sat in once they are empty, so removed jobs leave no trace. */
  const prune = async (path: string) => {
    for (let dir = dirname(path); dir.startsWith(root + sep); dir = dirname(dir)) {
      try {
        await rmdir(dir)
      } catch {
        return
      }
    }
  }
  return {
    kind: 'local',
    async write(key, body) {
      const path = pathOf(key)
      await mkdir(dirname(path), { recursive: true })
      const partial = `${path}.${process.pid}.${Date.now().toString(36)}.partial`
      try {
        await pipeline(Readable.from(body), createWriteStream(partial))
        await rename(partial, path)
      } catch (error) {
        await rm(partial, { force: true })
        await prune(partial)
        throw error
      }
      return (await stat(path)).size
    },
    async read(key) {
      const path = pathOf(key)
      try {
        await stat(path)
      } catch {
        throw new ObjectMissing(key)
      }
      return createReadStream(path)
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(pathOf(key), { force: true })))
      await Promise.all(keys.map((key) => prune(pathOf(key))))
    },
    presignedUrl: async () => undefined,
  }
}
