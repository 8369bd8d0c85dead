import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * An S3-compatible object store on loopback, path-style, speaking the few calls the storage provider makes:
 * PutObject, multipart uploads, GetObject (presigned links checked for their expiry), DeleteObjects and
 * ListObjectsV2 (one page, by prefix).
 * Enough to drive the official AWS SDK end to end without the network.
 */
export async function startFakeS3(bucket: string) {
  const objects = new Map<string, { body: Buffer; type: string; modifiedAt?: Date }>()
  const uploads = new Map<string, Map<number, Buffer>>()
  const requests: string[] = []
  const read = async (req: IncomingMessage) => {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return Buffer.concat(chunks)
  }
  const xml = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/xml' })
    res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`)
  }
  const server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://s3.local')
    const [, bucketName, ...rest] = url.pathname.split('/')
    const key = decodeURIComponent(rest.join('/'))
    const q = url.searchParams
    requests.push(`${req.method} ${key}${q.has('uploads') ? '?uploads' : ''}${q.has('delete') ? '?delete' : ''}`)
    if (bucketName !== bucket) return xml(res, 404, '<Error><Code>NoSuchBucket</Code></Error>')
    if (req.method === 'PUT' && q.has('partNumber')) {
      uploads.get(q.get('uploadId')!)!.set(Number(q.get('partNumber')), await read(req))
      res.writeHead(200, { etag: `"part-${q.get('partNumber')}"` })
      return res.end()
    }
    if (req.method === 'PUT') {
      objects.set(key, {
        body: await read(req),
        type: req.headers['content-type'] ?? 'application/octet-stream',
        modifiedAt: new Date(),
      })
      res.writeHead(200, { etag: '"object"' })
      return res.end()
    }
    if (req.method === 'POST' && q.has('uploads')) {
      const id = `upload-${uploads.size + 1}`
      uploads.set(id, new Map())
      return xml(
        res,
        200,
        `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`,
      )
    }
    if (req.method === 'POST' && q.has('uploadId')) {
      await read(req)
      const parts = uploads.get(q.get('uploadId')!)!
      const body = Buffer.concat([...parts.entries()].sort(([a], [b]) => a - b).map(([, part]) => part))
      objects.set(key, { body, type: 'application/octet-stream', modifiedAt: new Date() })
      return xml(
        res,
        200,
        `<CompleteMultipartUploadResult><Key>${key}</Key><ETag>"done"</ETag></CompleteMultipartUploadResult>`,
      )
    }
    if (req.method === 'POST' && q.has('delete')) {
      const body = (await read(req)).toString()
      for (const [, name] of body.matchAll(/<Key>([^<]*)<\/Key>/g)) objects.delete(name)
      return xml(res, 200, '<DeleteResult></DeleteResult>')
    }
    if (req.method === 'GET' && q.get('list-type') === '2') {
      const prefix = q.get('prefix') ?? ''
      const contents = [...objects]
        .filter(([name]) => name.startsWith(prefix))
        .map(
          ([name, object]) =>
            `<Contents><Key>${name}</Key><LastModified>${(object.modifiedAt ?? new Date()).toISOString()}</LastModified><Size>${object.body.length}</Size></Contents>`,
        )
      return xml(
        res,
        200,
        `<ListBucketResult><Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${contents.length}</KeyCount><IsTruncated>false</IsTruncated>${contents.join('')}</ListBucketResult>`,
      )
    }
    if (req.method === 'GET') {
      if (q.has('X-Amz-Expires')) {
        const date = q.get('X-Amz-Date')!.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, '$1-$2-$3T$4:$5:$6Z')
        if (Date.parse(date) + Number(q.get('X-Amz-Expires')) * 1000 < Date.now())
          return xml(res, 403, '<Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>')
      }
      const object = objects.get(key)
      if (!object) return xml(res, 404, `<Error><Code>NoSuchKey</Code><Key>${key}</Key></Error>`)
      const headers: Record<string, string> = {
        'content-type': object.type,
        'content-length': String(object.body.length),
      }
      const disposition = q.get('response-content-disposition')
      if (disposition) headers['content-disposition'] = disposition
      res.writeHead(200, headers)
      return res.end(object.body)
    }
    xml(res, 400, '<Error><Code>NotImplemented</Code></Error>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
