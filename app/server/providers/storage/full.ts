import { InsufficientStorage } from '../../domain/refusals'

/** What a file system says when it has no room: a full disk, or the user's quota reached. */
const noRoomCodes = new Set(['ENOSPC', 'EDQUOT'])

function saysNoRoom(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false
  const { code, name, $metadata } = error as { code?: unknown; name?: unknown; $metadata?: { httpStatusCode?: number } }
  // An S3-compatible store answers 507 (MinIO: XMinioStorageFull) when its disks are full.
  return (
    (typeof code === 'string' && noRoomCodes.has(code)) ||
    $metadata?.httpStatusCode === 507 ||
    name === 'XMinioStorageFull'
  )
}

/**
 * A write that found no room, as the refusal the caller reads (507 with the reason) instead of a failure
 * (500); any other error as it was.
 */
export function noRoomAsRefusal(error: unknown): unknown {
  return saysNoRoom(error) || saysNoRoom((error as { cause?: unknown } | undefined)?.cause)
    ? new InsufficientStorage('storage has no room', { cause: error })
    : error
}
