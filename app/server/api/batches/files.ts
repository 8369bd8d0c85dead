import type * as v from 'valibot'
import {
  batchLimits,
  type FileList,
  type FileListQuery,
  type FileObject,
  type fileUploadFields,
} from '~/contracts/batches'
import { createFile, deleteFile, fileObjectKey, fileOf, listFiles, newFileId, type FileRow } from '../../domain/batches'
import { InvalidInput } from '../../domain/refusals'
import { objectStorage } from '../../providers/storage'
import { keyOf, type Caller } from '../caller'
import { cleanFileName, storedOrGone } from '../bulk/stored-files'
import type { IncomingFile } from '../bulk/upload'

type UploadFields = v.InferOutput<typeof fileUploadFields>

/** What storing the uploaded file came to. */
export interface StoredFile {
  id: string
  fileName: string
  bytes: number
}

/** Reads the request: the route streams the file into `store` and hands back the validated form fields. */
export type ReceiveFile = (
  store: (file: IncomingFile) => Promise<StoredFile>,
) => Promise<{ fields: UploadFields; stored: StoredFile | undefined }>

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** A file as OpenAI's Files API shows it. */
export function fileAnswer(row: FileRow): FileObject {
  return {
    id: row.id,
    object: 'file',
    bytes: row.bytes,
    created_at: seconds(row.createdAt),
    expires_at: null,
    filename: row.fileName,
    purpose: row.purpose,
    status: 'processed',
    status_details: null,
  }
}

/**
 * POST /v1/files: stores an uploaded file (streamed, never held whole) for a batch to read. Its lines are
 * checked when a batch is created from it, as OpenAI checks them.
 */
export async function uploadFile(caller: Caller, receive: ReceiveFile): Promise<FileObject> {
  const { db, key } = await keyOf(caller, 'embeddings')
  const storage = objectStorage()
  const id = newFileId()
  let written = false
  try {
    const { stored } = await receive(async (file) => {
      written = true
      const bytes = await storage.write(fileObjectKey(id), file.body, 'application/jsonl')
      return { id, fileName: cleanFileName(file.fileName, 'batch.jsonl'), bytes }
    })
    if (!stored)
      throw new InvalidInput([{ loc: ['body', 'file'], msg: 'is required: a JSONL file of requests', type: 'missing' }])
    if (stored.bytes === 0) throw new InvalidInput([{ loc: ['body', 'file'], msg: 'is empty', type: 'empty' }])
    const row = await createFile(db, {
      id,
      keyId: key.id,
      purpose: 'batch',
      fileName: stored.fileName,
      bytes: stored.bytes,
      object: fileObjectKey(id),
    })
    return fileAnswer(row)
  } catch (error) {
    if (written) await storage.remove([fileObjectKey(id)]).catch(() => undefined)
    throw error
  }
}

/** GET /v1/files/{id}. */
export async function fileFor(caller: Caller, id: string): Promise<FileObject> {
  const { db, key } = await keyOf(caller)
  return fileAnswer(await fileOf(db, key.id, id))
}

/** GET /v1/files: the key's files, newest first, a page at a time (`after` the last id of the page before). */
export async function filesFor(caller: Caller, query: FileListQuery): Promise<FileList> {
  const { db, key } = await keyOf(caller)
  const { rows, hasMore } = await listFiles(db, key.id, {
    purpose: query.purpose,
    limit: query.limit ?? batchLimits.filesListMax,
    order: query.order ?? 'desc',
    after: query.after,
  })
  return {
    object: 'list',
    data: rows.map(fileAnswer),
    first_id: rows[0]?.id ?? null,
    last_id: rows.at(-1)?.id ?? null,
    has_more: hasMore,
  }
}

/** GET /v1/files/{id}/content: the file's bytes as they were uploaded or written. */
export async function fileContentFor(
  caller: Caller,
  id: string,
): Promise<{ body: AsyncIterable<Uint8Array>; fileName: string }> {
  const { db, key } = await keyOf(caller)
  const row = await fileOf(db, key.id, id)
  return { body: await storedOrGone({ file: row.id }, objectStorage().read(row.object)), fileName: row.fileName }
}

/** DELETE /v1/files/{id}: the row and its bytes. A batch made from it keeps its own copy of the requests. */
export async function deleteFileFor(
  caller: Caller,
  id: string,
): Promise<{ id: string; object: 'file'; deleted: true }> {
  const { db, key } = await keyOf(caller)
  const row = await deleteFile(db, key.id, id)
  await objectStorage()
    .remove([row.object])
    .catch(() => undefined)
  return { id: row.id, object: 'file', deleted: true }
}
