import { execFileSync } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseServingConfig } from '~/contracts/serving-config'
import { parseEnv } from '~/server/env'
import { call, keyWithBalance, apiDatabase } from '../support/api'

/**
 * Several engine instances at once, as SERVED_MODELS configures them: an onnx cross-encoder reranker and an
 * onnx embedding model with task adapters (tiny generated models), an upstream multimodal model (a loopback
 * fake of the original API) and the builtin engine for the rest.
 */
const received: Array<Record<string, unknown>> = []
let upstream: Server
let modelsDir: string
let upstreamUrl: string
let apiKey: string

beforeAll(async () => {
  modelsDir = mkdtempSync(join(tmpdir(), 'serving-'))
  execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'cross'), 'cross-encoder'])
  execFileSync(process.execPath, ['scripts/make-tiny-model.mjs', join(modelsDir, 'adapters'), 'task-adapters'])
  upstream = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk) => (body += chunk))
    request.on('end', () => {
      const json = JSON.parse(body) as { input: unknown[] }
      received.push({ path: request.url, authorization: request.headers.authorization, ...json })
      response.setHeader('content-type', 'application/json')
      response.end(
        JSON.stringify({
          model: 'jina-clip-v2',
          data: json.input.map((_, index) => ({ object: 'embedding', index, embedding: [index + 1, 2, 2] })),
          usage: { total_tokens: 3 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
})
afterAll(async () => {
  upstream.closeAllConnections()
  await new Promise((resolve) => upstream.close(resolve))
  rmSync(modelsDir, { recursive: true, force: true })
})
// After the beforeAll above, which makes the models and starts the upstream these settings name.
const database = apiDatabase({
  env: () => ({
    MODELS_DIR: modelsDir,
    CLIP_API_KEY: 'clip-secret',
    SERVED_MODELS: JSON.stringify({
      'reranker-v2-base-multilingual': { engine: 'onnx', folder: 'cross' },
      'jina-embeddings-v3': { engine: 'onnx', folder: 'adapters' },
      'clip-v2': { engine: 'upstream', url: upstreamUrl, model: 'jina-clip-v2', api_key_env: 'CLIP_API_KEY' },
      'reranker-v3': { engine: 'builtin' },
    }),
  }),
})
beforeAll(async () => {
  apiKey = (await keyWithBalance(database.db, 1_000_000)).apiKey
})

const embed = (json: Record<string, unknown>) => call('POST', '/v1/embeddings', { bearer: apiKey, json })

describe('SERVED_MODELS', () => {
  it('lists what is served and with which engine; the catalogue models it does not name are not served', async () => {
    const { body } = await call('GET', '/v1/models')
    const engineOf = Object.fromEntries(body.data.map((m: { id: string; engine: string | null }) => [m.id, m.engine]))
    expect(engineOf).toMatchObject({
      'reranker-v2-base-multilingual': 'onnx:cross',
      'embeddings-v3': 'onnx:adapters',
      'clip-v2': 'upstream:jina-clip-v2',
      'reranker-v3': 'builtin',
      'embeddings-v4': null,
    })
    const v3 = body.data.find((m: { id: string }) => m.id === 'embeddings-v3')
    expect(v3.options.embeddings.honoured).toContain('task')
    expect(v3.options.embeddings.not_applied).toEqual(['user'])
  })

  it('refuses a catalogue model it does not serve, naming those it does', async () => {
    const { status, body } = await embed({ model: 'embeddings-v4', input: ['x'] })
    expect(status).toBe(422)
    expect(body.detail[0].msg).toBe('is not served by this server: this server serves clip-v2, embeddings-v3')
  })

  it('computes each model with its own engine instance, task adapters applied', async () => {
    const query = await embed({ model: 'embeddings-v3', input: ['the cat sat'], task: 'retrieval.query' })
    const passage = await embed({ model: 'embeddings-v3', input: ['the cat sat'], task: 'retrieval.passage' })
    expect(query.response.headers.get('x-engine')).toBe('onnx:adapters')
    expect(query.response.headers.get('x-options-not-applied')).toBeNull()
    expect(query.body.data[0].embedding).toHaveLength(32)
    expect(query.body.data[0].embedding).not.toEqual(passage.body.data[0].embedding)
    const code = await embed({ model: 'embeddings-v3', input: ['the cat sat'], task: 'code.query' })
    expect(code.response.headers.get('x-options-not-applied')).toBe('task')

    const ranked = await call('POST', '/v1/rerank', {
      bearer: apiKey,
      json: { model: 'jina-reranker-v2-base-multilingual', query: 'the cat', documents: ['the cat sat', 'quantum'] },
    })
    expect(ranked.status).toBe(200)
    expect(ranked.response.headers.get('x-engine')).toBe('onnx:cross')
    expect(ranked.body.model).toBe('reranker-v2-base-multilingual')
  })

  it('forwards images, options and unknown fields untouched to an upstream, with its own key and model name', async () => {
    received.length = 0
    const image = 'https://images.example/cat.png'
    const { status, body, response } = await embed({
      model: 'jina-clip-v2',
      input: [{ image }, 'a cat'],
      task: 'retrieval.query',
      dimensions: 3,
      user: 'u-7',
      input_type: 'query',
    })
    expect(status).toBe(200)
    expect(received[0]).toEqual({
      path: '/v1/embeddings',
      authorization: 'Bearer clip-secret',
      model: 'jina-clip-v2',
      input: [{ image }, 'a cat'],
      task: 'retrieval.query',
      dimensions: 3,
      user: 'u-7',
      input_type: 'query',
      embedding_type: 'float',
      normalized: true,
    })
    expect(body.model).toBe('clip-v2')
    expect(response.headers.get('x-engine')).toBe('upstream:jina-clip-v2')
    expect(response.headers.get('x-options-not-applied')).toBeNull()
    expect(body.data[0].embedding).toEqual([1 / 3, 2 / 3, 2 / 3].map(Math.fround))
  })
})

describe('SERVED_MODELS checks', () => {
  it('stops start-up naming the entry at fault', () => {
    const base = { CAPTCHA_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp' }
    expect(() => parseEnv({ ...base, SERVED_MODELS: '{"embeddings-v3": {"engine": "onx"}}' })).toThrow(
      /SERVED_MODELS: embeddings-v3.engine: must be builtin, onnx, use-lite or upstream/,
    )
    expect(() => parseEnv({ ...base, SERVED_MODELS: '{"gpt-4": {"engine": "builtin"}}' })).toThrow(
      /gpt-4 is not in the model catalogue/,
    )
    expect(() => parseEnv({ ...base, SERVED_MODELS: 'models.json' })).toThrow(/SERVED_MODELS is not valid JSON/)
    expect(() => parseServingConfig('{"clip-v2": {"engine": "upstream", "url": "not a url"}}')).toThrow(/must be a URL/)
    expect(parseServingConfig('{"*": {"engine": "builtin"}}')).toEqual({ '*': { engine: 'builtin' } })
    expect(parseServingConfig('{"embeddings-v3": {"engine": "use-lite"}}')).toEqual({
      'embeddings-v3': { engine: 'use-lite' },
    })
    expect(() => parseServingConfig('{"embeddings-v3": {"engine": "use-lite", "folder": "x"}}')).toThrow(
      /SERVED_MODELS: embeddings-v3/,
    )
  })
})
