import { bulkLimits, bulkUploadFields } from '~/contracts/bulk'
import type { ReceiveUpload } from '../api/bulk/upload'
import { BULK_UPLOAD_BYTES, limitedBody } from './body-limit'
import { validate } from './input'
import { readUpload } from './multipart'

/**
 * How POST /v1/bulk-embeddings reads its body: streamed under the upload limit, the file handed on as it
 * arrives. When the form names its model before the file (as browsers send fields in order), the fields are
 * checked before a byte of the file is stored.
 */
export const receiveBulkUpload =
  (request: Request): ReceiveUpload =>
  async (store) => {
    const body = limitedBody(request, BULK_UPLOAD_BYTES)
    if (!body) return { fields: validate(bulkUploadFields, {}, 'body'), stored: undefined }
    const limits = { fileField: 'file', maxFileBytes: bulkLimits.maxFileBytes }
    const { fields, file } = await readUpload(body, request.headers.get('content-type'), limits, (file, early) => {
      if (early.model !== undefined) validate(bulkUploadFields, early, 'body')
      return store(file)
    })
    return { fields: validate(bulkUploadFields, fields, 'body'), stored: file }
  }
