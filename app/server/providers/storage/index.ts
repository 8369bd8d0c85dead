import { serverEnv, type ServerEnv } from '~/server/env'
import { localStorage } from './local'
import { s3Storage } from './s3'
import type { ObjectStorage } from './types'

export { ObjectMissing, type ObjectStorage } from './types'

let cached: { env: ServerEnv; storage: ObjectStorage } | undefined

/** The configured store: S3 when S3_BUCKET is set, else files under DATA_DIR. One per environment read. */
export function objectStorage(env = serverEnv()): ObjectStorage {
  if (cached?.env === env) return cached.storage
  const storage = env.S3_BUCKET
    ? s3Storage({
        bucket: env.S3_BUCKET,
        region: env.S3_REGION,
        endpoint: env.S3_ENDPOINT,
        accessKeyId: env.S3_ACCESS_KEY_ID,
        secretAccessKey: env.S3_SECRET_ACCESS_KEY,
        forcePathStyle: env.S3_FORCE_PATH_STYLE,
        prefix: env.S3_PREFIX,
      })
    : localStorage(env.DATA_DIR)
  cached = { env, storage }
  return storage
}
