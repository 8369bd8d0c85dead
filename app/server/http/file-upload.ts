import { batchLimits, fileUploadFields } from '~/contracts/batches'
import type { ReceiveFile } from '../api/batches/files'
import { FILE_UPLOAD_BYTES, limitedBody } from './body-limit'
import { validate } from './input'
import { readUpload } from './multipart'

/**
 * How POST /v1/files reads its body: streamed under the upload limit, the file handed on as it arrives, the
 * `purpose` field checked before a byte is stored when it comes first, and in any case before the file counts.
 */
export const receiveFileUpload =
  (request: Request): ReceiveFile =>
  async (store) => {
    const body = limitedBody(request, FILE_UPLOAD_BYTES)
    if (!body) return { fields: validate(fileUploadFields, {}, 'body'), stored: undefined }
    const limits = { fileField: 'file', maxFileBytes: batchLimits.maxFileBytes }
    const { fields, file } = await readUpload(body, request.headers.get('content-type'), limits, (file, early) => {
      if (early.purpose !== undefined) validate(fileUploadFields, early, 'body')
      return store(file)
    })
    return { fields: validate(fileUploadFields, fields, 'body'), stored: file }
  }
