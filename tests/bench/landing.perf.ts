import autocannon from 'autocannon'
import { get } from 'node:http'
import { gzipSync } from 'node:zlib'
import { describe, expect, inject, it } from 'vitest'
import { appRunning, launchBrowser } from '../e2e/support/browser'
import { marketingPages } from './support/pages'
import { recordResults, type BenchResult } from './support/results'

const baseUrl = inject('baseUrl')

/**
 * First-load JavaScript: every script file Chromium fetched for the page before `load`, gzipped: what competes
 * with the first paint. Prerendered pages prefetch their client runtime (with the router's hydration data) once
 * the first paint is done and run it on the first interaction (app/server/http/deferred-runtime.ts); it is
 * measured apart as every script fetched until the app runs. The inline scripts of the HTML (the theme script, the base URLs, the
 * loader) are measured apart as they are served, since the page removes some once they have run; JSON-LD
 * blocks are data for crawlers and not counted.
 */
async function firstLoadJs(
  path: string,
): Promise<{ kb: number; runtimeKb: number; inlineKb: number; firebase: boolean }> {
  const browser = await launchBrowser()
  const page = await browser.newPage()
  const requested: Array<{ url: string; beforeLoad: boolean }> = []
  const seen = new Set<string>()
  let loaded = false
  page.on('load', () => (loaded = true))
  page.on('request', (request) => {
    // Prefetched at idle (resource type "other"), then run from the cache: each file counts once.
    if (request.resourceType() !== 'script' && !/\.js$/.test(new URL(request.url()).pathname)) return
    if (seen.has(request.url())) return
    seen.add(request.url())
    requested.push({ url: request.url(), beforeLoad: !loaded })
  })
  await page.goto(baseUrl + path, { waitUntil: 'load' })
  await page.waitForLoadState('networkidle')
  await appRunning(page)
  await page.waitForLoadState('networkidle')
  // Read again from the server: Chromium does not hand out the body of a prefetch (the hydration data's).
  const all = await Promise.all(
    requested.map(async ({ url, beforeLoad }) => ({
      beforeLoad,
      body: Buffer.from(await (await fetch(url)).arrayBuffer()),
    })),
  )
  const scripts = all.map(({ body }) => body)
  await browser.close()
  const html = await (await fetch(baseUrl + path)).text()
  const inline = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)]
    .filter(
      ([, attributes, body]) => !/\bsrc=/.test(attributes) && !/application\/ld\+json/.test(attributes) && body.trim(),
    )
    .map(([, , body]) => body)
    .join('')
  const gzippedKb = (list: Buffer[]) => list.reduce((sum, body) => sum + gzipSync(body).length, 0) / 1024
  return {
    kb: gzippedKb(all.filter(({ beforeLoad }) => beforeLoad).map(({ body }) => body)),
    runtimeKb: gzippedKb(scripts),
    inlineKb: gzipSync(inline).length / 1024,
    firebase: scripts.some((body) => body.includes('firebase')) || inline.includes('firebase'),
  }
}

/** A new connection's first round trip carries 10 segments of 1,460 B (initial congestion window, RFC 6928). */
const firstRoundTripKb = (10 * 1460) / 1024

/** The page as it crosses the wire to a browser: brotli body and response headers, in KB. */
function servedHtmlKb(path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(baseUrl + path, { headers: { 'accept-encoding': 'br, gzip', accept: 'text/html' } }, (response) => {
      let bytes = response.rawHeaders.reduce((sum, part) => sum + Buffer.byteLength(part) + 2, 20)
      response.on('data', (chunk: Buffer) => (bytes += chunk.length))
      response.on('end', () => resolve(bytes / 1024))
      response.on('error', reject)
    }).on('error', reject)
  })
}

describe('landing page', () => {
  it('serves server-rendered requests per second', async () => {
    // As a browser asks for it: brotli, which the prerendered page is stored in.
    const headers = { 'accept-encoding': 'br, gzip', accept: 'text/html' }
    await autocannon({ url: `${baseUrl}/`, connections: 16, duration: 2, headers })
    const run = await autocannon({ url: `${baseUrl}/`, connections: 16, duration: 10, pipelining: 1, headers })
    const results: BenchResult[] = [
      {
        name: 'landing SSR requests/s',
        value: Math.round(run.requests.average),
        unit: 'req/s',
        note: '16 connections, brotli, prerendered',
      },
      { name: 'landing SSR latency p99', value: run.latency.p99, unit: 'ms', note: `p50 ${run.latency.p50} ms` },
    ]
    for (const path of marketingPages) {
      const js = await firstLoadJs(path)
      results.push({
        name: `first-load JS ${path}`,
        value: Math.round(js.kb * 10) / 10,
        unit: 'KB gzip',
        budget: { op: '<', value: 120 },
        note: `fetched before load; ${js.firebase ? 'contains Firebase' : 'no Firebase'}`,
      })
      results.push({
        name: `client runtime JS ${path}`,
        value: Math.round(js.runtimeKb * 10) / 10,
        unit: 'KB gzip',
        note: 'every script until the app runs, the hydration data included: prefetched after the first paint, run on the first interaction',
      })
      results.push({
        name: `HTML as served ${path}`,
        value: Math.round((await servedHtmlKb(path)) * 10) / 10,
        unit: 'KB',
        budget: { op: '<', value: Math.round(firstRoundTripKb * 10) / 10 },
        note: 'brotli body and response headers: within the first round trip, the paint needs no second',
      })
      results.push({
        name: `inline scripts ${path}`,
        value: Math.round(js.inlineKb * 10) / 10,
        unit: 'KB gzip',
        note: 'theme script, base URLs, the loader of the runtime',
      })
      expect(js.firebase).toBe(false)
    }
    expect(run.non2xx).toBe(0)
    recordResults('landing', results)
  }, 300_000)
})
