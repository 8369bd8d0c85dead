import { StoredObjectMissing } from '../../domain/refusals'
import { log } from '../../log'
import { ObjectMissing } from '../../providers/storage'

/** The name a stored upload shows: the base name the client sent, without control characters, at most 255 long. */
export function cleanFileName(name: string, fallback: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  const clean = base
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 255)
  return clean || fallback
}

/**
 * A missing stored object as a clear 410 rather than a 500, logged with the likely cause: with local storage
 * each instance has its own folder, so one instance cannot serve what another stored. `owner` names the job
 * or file in the log line.
 */
export async function storedOrGone<T>(owner: Record<string, string>, reading: Promise<T>): Promise<T> {
  try {
    return await reading
  } catch (error) {
    if (!(error instanceof ObjectMissing)) throw error
    log('warn', 'stored object missing; several instances need S3 or one shared DATA_DIR', {
      ...owner,
      key: error.key,
    })
    throw new StoredObjectMissing(error.message, { cause: error })
  }
}
