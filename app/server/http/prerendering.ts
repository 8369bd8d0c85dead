/**
 * Whether this process is the build's prerenderer: it renders with a fixed nonce (postbuild replaces it by
 * script hashes), serves no prerendered copies and starts no background work. Read once.
 */
let prerendering: boolean | undefined

export const isPrerendering = (): boolean => (prerendering ??= globalThis.process?.env?.TSS_PRERENDERING === 'true')
