import type { ShotFormat } from '~/contracts/reader'
import { DownloadLinkRefused } from '../../domain/refusals'
import { serverEnv } from '../../env'
import { log } from '../../log'
import { objectStorage } from '../../providers/storage'
import { signText } from '../bulk/download-link'
import { startPeriodic } from '../periodic'

/** How long a screenshot's link works. */
export const SHOT_LINK_SECONDS = 24 * 3600

/** How often stored screenshots past their link's life are removed: none outlives its link by more. */
export const SHOT_SWEEP_MS = 60 * 60 * 1000

const SHOTS = 'reader-shots/'
const keyOf = (id: string) => `${SHOTS}${id}.png`

/**
 * Stores a screenshot where bulk results go (DATA_DIR/objects or the S3 bucket) and answers a link that
 * fetches it without a key until it expires: S3's presigned URL, or this server's own signed one.
 */
export async function storeShot(png: Buffer, kind: ShotFormat, now = Date.now()): Promise<string> {
  const id = crypto.randomUUID()
  const storage = objectStorage()
  await storage.write(keyOf(id), [png], 'image/png')
  const expiresAt = new Date(now + SHOT_LINK_SECONDS * 1000)
  const presigned = await storage.presignedUrl(keyOf(id), { expiresAt, fileName: `${kind}-${id}.png` })
  if (presigned) return presigned
  const expires = Math.floor(expiresAt.getTime() / 1000)
  const query = new URLSearchParams({
    expires: String(expires),
    signature: await signText(`reader-shot\n${id}\n${expires}`),
  })
  return `${serverEnv().PUBLIC_API_BASE_URL}/v1/reader/shots/${id}?${query}`
}

/** The stored PNG behind a signed link; an altered or expired link is refused with 403. */
export async function signedShot(
  id: string,
  link: { expires: number; signature: string },
  now = Date.now(),
): Promise<AsyncIterable<Uint8Array>> {
  const expected = await signText(`reader-shot\n${id}\n${link.expires}`)
  let difference = expected.length ^ link.signature.length
  for (let at = 0; at < expected.length; at++) difference |= expected.charCodeAt(at) ^ link.signature.charCodeAt(at)
  if (difference !== 0) throw new DownloadLinkRefused('invalid')
  if (link.expires * 1000 <= now) throw new DownloadLinkRefused('expired')
  // A link that outlived its image reads as expired.
  return objectStorage()
    .read(keyOf(id))
    .catch(() => {
      throw new DownloadLinkRefused('expired')
    })
}

/**
 * Removes the screenshots stored longer ago than their link lives (SHOT_LINK_SECONDS), in local storage or
 * the S3 bucket alike; answers how many. Several instances on one bucket may sweep it at once: removing is
 * idempotent.
 */
export async function sweepExpiredShots(now = Date.now(), storage = objectStorage()): Promise<number> {
  const expired = (await storage.list(SHOTS))
    .filter((object) => object.modifiedAt.getTime() <= now - SHOT_LINK_SECONDS * 1000)
    .map((object) => object.key)
  if (expired.length) await storage.remove(expired)
  return expired.length
}

/** Sweeps at start and then every SHOT_SWEEP_MS, on every instance (removing is idempotent). */
export function startShotSweeper(): void {
  startPeriodic({
    name: 'reader screenshot sweep',
    intervalMs: SHOT_SWEEP_MS,
    async run() {
      const removed = await sweepExpiredShots()
      if (removed) log('info', 'expired reader screenshots removed', { removed })
    },
  })
}
