import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { serveBuild, useServer } from './support/server'
import { keyFrom } from '../support/trial-key'

/**
 * The production build serving a model on the use-lite engine: its runtime and weights are found by path
 * (the inference thread requires the runtime, the weights are files), which no bundler follows, so the build
 * must have copied both packages into `.output` (vite.config.ts, traceDeps) and the thread must start there.
 */
const server = useServer(
  () =>
    serveBuild({
      DATABASE_URL: '',
      CAPTCHA_DIFFICULTY: '20',
      SERVED_MODELS: JSON.stringify({ 'embeddings-v2-base-en': { engine: 'use-lite' }, '*': { engine: 'builtin' } }),
    }),
  { forceAfterMs: 10_000 },
)
let apiKey: string
beforeAll(async () => {
  apiKey = await keyFrom(server.baseUrl)
}, 120_000)

describe('the use-lite engine in the production build', () => {
  it('ships the runtime and the weights inside .output', () => {
    const modules = join(process.cwd(), '.output/server/node_modules/@energetic-ai')
    for (const file of [
      'core/dist/index.js',
      'core/dist/tfjs-backend-wasm-simd.wasm',
      'model-embeddings-en/dist/model.json',
      'model-embeddings-en/dist/vocab.json',
      'model-embeddings-en/dist/group1-shard7of7',
    ])
      expect(existsSync(join(modules, file)), file).toBe(true)
  })

  it('answers embeddings computed by the encoder, a paraphrase close and an unrelated sentence far', async () => {
    const response = await fetch(`${server.baseUrl}/v1/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify({
        model: 'embeddings-v2-base-en',
        input: ['The cat sat on the mat.', 'A cat was sitting on the mat.', 'Stock markets fell sharply this morning.'],
      }),
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('x-engine')).toBe('use-lite')
    const { data } = (await response.json()) as { data: Array<{ embedding: number[] }> }
    const [cat, sitting, stocks] = data.map((d) => d.embedding)
    const dot = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * b[i], 0)
    expect(cat).toHaveLength(512)
    expect(dot(cat, sitting)).toBeGreaterThan(0.85)
    expect(dot(cat, stocks)).toBeLessThan(0.3)
  })
})
