import type * as NodeCompress from './compress'

/**
 * Cloudflare compresses what a Worker answers (gzip or brotli, as the client accepts), and workerd would
 * encode a body already gzipped here a second time: the Worker answers uncompressed.
 */
export const compressed: typeof NodeCompress.compressed = (_request, response) => response
