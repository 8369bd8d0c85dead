import { sql } from 'drizzle-orm'
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterAll, beforeAll, expect, it, vi } from 'vitest'
import { bulkTestDatabase, upload, uploadForm } from '../support/bulk'
import { fingerprint, keyWithBalance, scalar } from '../support/api'
import { describeNeeding } from '../support/services'

/**
 * Bulk uploads on a full disk (issue 38, defect 13): the storage folder is a real 2 MB tmpfs, so the writes fail
 * in the kernel with ENOSPC as a full disk's do. The caller reads 507 with the reason, never 500, and nothing
 * is left: no partial file, no job, no charge.
 */
const { database, dataDir } = bulkTestDatabase('bulk-disk-full')
const objectsDir = resolve(dataDir, 'objects')

/** Mounts a 2 MB tmpfs on the storage folder; undefined when this user may not (not root). */
function mountSmallDisk(): string | undefined {
  mkdirSync(objectsDir, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', objectsDir], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    return `a 2 MB tmpfs mounted on the storage folder (as root: ${String((error as Error).message).split('\n')[0]})`
  }
}
const missing = mountSmallDisk()
afterAll(() => {
  if (!missing) execFileSync('umount', [objectsDir])
})

/** Every file on the small disk but the filler, partial files included. */
const storedFiles = (dir = objectsDir): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? storedFiles(resolve(dir, entry.name)) : entry.name === 'filler' ? [] : [entry.name],
  )

describeNeeding(missing, 'bulk uploads on a full disk', () => {
  let key: { apiKey: string; id: string }
  beforeAll(async () => {
    key = await keyWithBalance(database.db, 1_000_000)
  })

  const unchanged = async (run: () => Promise<void>) => {
    const before = {
      ledger: await fingerprint(database.db),
      jobs: await scalar(database.db, sql`select count(*) from bulk_jobs`),
    }
    await run()
    expect({
      ledger: await fingerprint(database.db),
      jobs: await scalar(database.db, sql`select count(*) from bulk_jobs`),
    }).toEqual(before)
    expect(storedFiles()).toEqual([])
  }

  it('answers 507 with the reason for an upload larger than the free disk, and keeps nothing of it', async () => {
    // About 4 MB of texts (more once stored as lines of JSON) against 2 MB of disk.
    const text = (i: number) => `text number ${i} about ranking and search, padded to a length of about eighty`
    const csv = `text\n${Array.from({ length: 50_000 }, (_, i) => text(i)).join('\n')}\n`
    await unchanged(async () => {
      const answer = await upload(key.apiKey, uploadForm('big.csv', csv, { model: 'embeddings-v3' }))
      expect(answer.status).toBe(507)
      expect(answer.body.detail).toMatch(/insufficient storage/i)
    })
  })

  it('answers 507 for any upload while the disk is full, and takes it once there is room again', async () => {
    const filler = resolve(objectsDir, 'filler')
    try {
      // Fill the disk to its last byte: the write fails with ENOSPC once it has nothing left.
      try {
        writeFileSync(filler, Buffer.alloc(2 * 1024 * 1024))
      } catch (error) {
        expect((error as NodeJS.ErrnoException).code).toBe('ENOSPC')
      }
      const small = uploadForm('small.txt', 'one text\nanother text\n', { model: 'embeddings-v3' })
      const warnings: string[] = []
      vi.spyOn(console, 'error').mockImplementation((line: unknown) => void warnings.push(String(line)))
      await unchanged(async () => {
        const answer = await upload(key.apiKey, small)
        expect(answer.status).toBe(507)
        expect(answer.body.detail).toMatch(/insufficient storage/i)
      })
      // The operator reads why, once, as a warning (not a 500's "unexpected error").
      const refused = warnings.map((line) => JSON.parse(line) as Record<string, any>)
      expect(refused).toMatchObject([
        { level: 'warn', msg: 'refused', status: 507, refusal: 'InsufficientStorage', error: { code: 'ENOSPC' } },
      ])
    } finally {
      vi.restoreAllMocks()
      rmSync(filler, { force: true })
    }
    const answer = await upload(
      key.apiKey,
      uploadForm('small.txt', 'one text\nanother text\n', { model: 'embeddings-v3' }),
    )
    expect(answer.status).toBe(200)
  })
})
