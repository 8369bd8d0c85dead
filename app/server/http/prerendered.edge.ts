import type * as NodePrerendered from './prerendered'

export const PRERENDER_NONCE: typeof NodePrerendered.PRERENDER_NONCE = 'prerender-nonce'

/** A Worker has no file system to serve built pages from (and the edge build prerenders none): pages render live. */
export const prerenderedPage: typeof NodePrerendered.prerenderedPage = async () => undefined
