import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { Readable } from 'node:stream'
import { noRoomAsRefusal } from './full'
import { ObjectMissing, type ObjectStorage } from './types'

export interface S3Settings {
  bucket: string
  region: string
  endpoint?: string
  accessKeyId?: string
  secretAccessKey?: string
  forcePathStyle: boolean
  /** Prepended to every key, so one bucket can serve several deployments. */
  prefix: string
}

/**
 * Any S3-compatible store through the official AWS SDK. Uploads stream in parts (lib-storage), so a large
 * result never sits in memory; downloads are presigned GET URLs, so the file never passes through the app.
 */
export function s3Storage(settings: S3Settings): ObjectStorage {
  const config: S3ClientConfig = {
    region: settings.region,
    forcePathStyle: settings.forcePathStyle,
    // Checksums only where S3 requires them: many S3-compatible stores reject the SDK's default trailers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.accessKeyId && settings.secretAccessKey
      ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
      : {}),
  }
  const client = new S3Client(config)
  const Bucket = settings.bucket
  const keyOf = (key: string) => settings.prefix + key
  return {
    kind: 's3',
    async write(key, body, contentType) {
      let bytes = 0
      const counted = Readable.from(
        (async function* () {
          for await (const chunk of body) {
            bytes += chunk.byteLength
            yield chunk
          }
        })(),
      )
      await new Upload({ client, params: { Bucket, Key: keyOf(key), Body: counted, ContentType: contentType } })
        .done()
        .catch((error: unknown) => {
          throw noRoomAsRefusal(error)
        })
      return bytes
    },
    async read(key) {
      try {
        const answer = await client.send(new GetObjectCommand({ Bucket, Key: keyOf(key) }))
        if (!answer.Body) throw new ObjectMissing(key)
        return answer.Body as Readable
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string })?.name === 'NoSuchKey')
          throw new ObjectMissing(key)
        throw error
      }
    },
    async remove(keys) {
      for (let at = 0; at < keys.length; at += 1000) {
        const Objects = keys.slice(at, at + 1000).map((key) => ({ Key: keyOf(key) }))
        await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }))
      }
    },
    async list(prefix) {
      const found: Array<{ key: string; modifiedAt: Date }> = []
      let ContinuationToken: string | undefined
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: keyOf(prefix), ContinuationToken }))
        for (const object of page.Contents ?? [])
          if (object.Key)
            found.push({
              key: object.Key.slice(settings.prefix.length),
              modifiedAt: object.LastModified ?? new Date(0),
            })
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (ContinuationToken)
      return found
    },
    async presignedUrl(key, { expiresAt, fileName }) {
      const expiresIn = Math.max(1, Math.round((expiresAt.getTime() - Date.now()) / 1000))
      const command = new GetObjectCommand({
        Bucket,
        Key: keyOf(key),
        ResponseContentDisposition: `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"`,
      })
      return getSignedUrl(client, command, { expiresIn })
    },
  }
}
