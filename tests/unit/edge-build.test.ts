import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseEnv } from '~/server/env'
import { nodeCapabilityFor, nodeRoutesSummary, proxyToNode } from '~/server/http/node-routes'
import { runtimeProblems } from '~/server/runtime.edge'
import { nodeCapabilities } from '~/server/node-capabilities'

const root = join(import.meta.dirname, '../..')

describe('the edge build’s twins', () => {
  it('each replaces a module that exists, so none silently adds code to the Worker', () => {
    const twins = readdirSync(join(root, 'app'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      f.endsWith('.edge.ts'),
    )
    expect(twins.length).toBeGreaterThan(5)
    for (const twin of twins) expect(existsSync(join(root, 'app', twin.replace(/\.edge\.ts$/, '.ts'))), twin).toBe(true)
  })
})

describe('what an edge build hands to Node', () => {
  const env = parseEnv({})
  it('routes the reader, deep search and bulk jobs always, and the inference APIs only with the onnx engine', () => {
    expect(nodeCapabilityFor('/r/https://example.com/a', env)).toBe('reader')
    expect(nodeCapabilityFor('/r', env)).toBe('reader')
    expect(nodeCapabilityFor('/v1/chat/completions', env)).toBe('reader')
    expect(nodeCapabilityFor('/v1/bulk-embeddings/abc/result', env)).toBe('bulk')
    expect(nodeCapabilityFor('/reader', env)).toBeUndefined()
    expect(nodeCapabilityFor('/v1/embeddings', env)).toBeUndefined()
    const onnx = { INFERENCE_ENGINE: 'onnx' as const }
    for (const path of ['/v1/embeddings', '/v1/rerank', '/v1/classify', '/v1/train'])
      expect(nodeCapabilityFor(path, onnx)).toBe('embeddings')
    expect(nodeCapabilityFor('/v1/segment', onnx)).toBeUndefined()
    expect(nodeCapabilityFor('/v1/classifiers', onnx)).toBeUndefined()
    // The model list describes the onnx engines, which only Node builds.
    expect(nodeCapabilityFor('/v1/models', onnx)).toBe('embeddings')
    expect(nodeCapabilityFor('/v1/models/embeddings-v3', onnx)).toBe('embeddings')
    expect(nodeCapabilityFor('/v1/models', env)).toBeUndefined()
    // SERVED_MODELS with an onnx entry routes them too, whatever INFERENCE_ENGINE says; without one it does not.
    const served = (engine: string) => ({
      INFERENCE_ENGINE: 'builtin' as const,
      SERVED_MODELS: JSON.stringify({ 'embeddings-v3': engine === 'onnx' ? { engine, folder: 'm' } : { engine } }),
    })
    expect(nodeCapabilityFor('/v1/rerank', served('onnx'))).toBe('embeddings')
    expect(nodeCapabilityFor('/v1/rerank', served('builtin'))).toBeUndefined()
    // The use-lite engine runs on a worker thread from files of its package: Node too.
    expect(nodeCapabilityFor('/v1/embeddings', served('use-lite'))).toBe('embeddings')
    expect(nodeCapabilityFor('/v1/classify', { INFERENCE_ENGINE: 'use-lite' as const })).toBe('embeddings')
  })

  it('says where each capability goes', () => {
    expect(nodeRoutesSummary(parseEnv({ READER_UPSTREAM: 'http://node.internal:3000/base' }))).toEqual({
      reader: 'READER_UPSTREAM http://node.internal:3000',
      embeddings: 'served here',
      bulk: '501 (BULK_UPSTREAM unset)',
    })
  })

  it('forwards method, path, query, body and the caller’s headers, adding who asked and the request id', async () => {
    let sent: { url: string; init: RequestInit } | undefined
    const send = (async (url: string, init: RequestInit) => {
      sent = { url, init }
      return new Response('ok', { status: 201 })
    }) as typeof fetch
    const request = new Request('https://edge.example/v1/bulk-embeddings?x=1', {
      method: 'POST',
      headers: {
        authorization: 'Bearer key',
        'cf-connecting-ip': '203.0.113.9',
        'x-forwarded-for': '198.51.100.1',
        connection: 'keep-alive',
      },
      body: 'file',
    })
    const answer = await proxyToNode(
      request,
      { capability: 'bulk', upstream: 'http://node.internal:3000/', requestId: 'req-1', env: parseEnv({}) },
      send,
    )
    expect(answer.status).toBe(201)
    expect(sent!.url).toBe('http://node.internal:3000/v1/bulk-embeddings?x=1')
    expect(sent!.init.method).toBe('POST')
    expect(sent!.init.redirect).toBe('manual')
    const headers = sent!.init.headers as Headers
    expect(headers.get('authorization')).toBe('Bearer key')
    expect(headers.get('x-request-id')).toBe('req-1')
    expect(headers.get('x-forwarded-host')).toBe('edge.example')
    expect(headers.get('x-forwarded-proto')).toBe('https')
    // Cloudflare's own headers and connection-level ones stay behind.
    expect(headers.has('cf-connecting-ip')).toBe(false)
    expect(headers.has('connection')).toBe(false)
    expect(await new Response(sent!.init.body).text()).toBe('file')
  })

  it('answers 502 with a detail naming the setting when the Node backend cannot be reached', async () => {
    const send = (async () => {
      throw new TypeError('fetch failed')
    }) as typeof fetch
    const answer = await proxyToNode(
      new Request('https://edge.example/r/https://example.com'),
      { capability: 'reader', upstream: 'http://127.0.0.1:9', requestId: 'r', env: parseEnv({}) },
      send,
    )
    expect(answer.status).toBe(502)
    expect(await answer.json()).toEqual({
      detail: `The Node backend for ${nodeCapabilities.reader.label} (READER_UPSTREAM) could not be reached`,
    })
  })
})

describe('settings the edge build cannot start without', () => {
  it('asks for the database URL, a shared captcha key and, where the sandbox is asked for, its secret', () => {
    expect(runtimeProblems(parseEnv({}))).toEqual([
      expect.stringContaining('DATABASE_URL'),
      expect.stringContaining('CAPTCHA_SECRET'),
    ])
    expect(runtimeProblems(parseEnv({ PAYMENTS_SANDBOX: 'on' }))).toEqual([
      expect.stringContaining('DATABASE_URL'),
      expect.stringContaining('CAPTCHA_SECRET'),
      expect.stringContaining('PAYMENTS_SANDBOX_SECRET'),
    ])
    const configured = parseEnv({
      DATABASE_URL: 'postgres://db/app',
      TURNSTILE_SECRET_KEY: 'x',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_x',
    })
    expect(runtimeProblems(configured)).toEqual([])
  })
})
