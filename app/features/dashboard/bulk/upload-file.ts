import { ApiError, fromResponse } from '~/lib/api-error'
import type { BulkJob } from '~/contracts/bulk'

export interface BulkUpload {
  apiKey: string
  file: File
  model: string
  email: string
  /** Share of the file sent so far, 0 to 1. */
  onProgress: (sent: number) => void
  signal: AbortSignal
}

/**
 * POST /v1/bulk-embeddings of this site (same origin, as the demos call the API) with XMLHttpRequest, the
 * one browser API that reports upload progress. The fields go before the file, so the server checks them
 * before it stores a byte of it.
 */
export function uploadBulkFile(upload: BulkUpload): Promise<BulkJob> {
  const form = new FormData()
  form.append('model', upload.model)
  if (upload.email) form.append('email', upload.email)
  form.append('file', upload.file, upload.file.name)
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', '/v1/bulk-embeddings')
    request.setRequestHeader('Authorization', `Bearer ${upload.apiKey}`)
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) upload.onProgress(event.loaded / event.total)
    }
    request.onload = () => {
      const answer = new Response(request.responseText, {
        status: request.status,
        headers: { 'content-type': request.getResponseHeader('content-type') ?? 'text/plain' },
      })
      if (request.status === 200) answer.json().then(resolve, reject)
      else fromResponse(answer).then(reject, reject)
    }
    request.onerror = () => reject(new ApiError(0, 'Network error'))
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'))
    upload.signal.addEventListener('abort', () => request.abort(), { once: true })
    request.send(form)
  })
}
