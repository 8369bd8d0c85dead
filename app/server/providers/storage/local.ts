import { createReadStream, createWriteStream } from 'node:fs'
import { mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises'
import { dirname, relative, resolve, sep } from 'node:path'
import { pipeline } from 'node:stream/promises'
import { Readable } from 'node:stream'
import { noRoomAsRefusal } from './full'
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
      const partial = `${path}.${process.pid}.${Date.now().toString(36)}.partial`
      try {
        await mkdir(dirname(path), { recursive: true })
        await pipeline(Readable.from(body), createWriteStream(partial))
        await rename(partial, path)
      } catch (error) {
        await rm(partial, { force: true })
        await prune(partial)
        throw noRoomAsRefusal(error)
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
    async list(prefix) {
      let names: string[]
      try {
        names = await readdir(pathOf(prefix), { recursive: true })
      } catch {
        return [] // no such folder: nothing stored under it
      }
      const found: Array<{ key: string; modifiedAt: Date }> = []
      for (const name of names) {
        if (name.endsWith('.partial')) continue
        const path = resolve(pathOf(prefix), name)
        const info = await stat(path).catch(() => undefined)
        if (info?.isFile()) found.push({ key: relative(root, path).split(sep).join('/'), modifiedAt: info.mtime })
      }
      return found
    },
    presignedUrl: async () => undefined,
  }
}
