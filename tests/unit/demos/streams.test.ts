import { describe, expect, it } from 'vitest'
import { ApiError } from '~/lib/api-error'
import { demoCurl } from '~/features/demos/lib/curl'
import { answerParts, applyChunk, emptyView } from '~/features/demos/lib/deepsearch-stream'
import { streamFailure } from '~/features/demos/lib/use-stream-run'
import { readerHeaders } from '~/features/demos/reader/reader-request'
import { curlArguments } from '../../support/shell'

const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra = {}) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
})

describe('a deep-search stream as the demos read it', () => {
  it('collects think steps with their page or query, then the answer and, at the end, sources and usage', () => {
    const citation = { title: 'T', exactQuote: 'Q', url: 'https://x/', dateTime: '2025-01-01T00:00:00.000Z' }
    const steps = [
      chunk({ role: 'assistant', content: '<think>', type: 'think' }),
      chunk({ content: 'Searching this site for “x”.\n', type: 'think', query: 'x' }),
      chunk({ content: 'Reading “T”.\n', type: 'think', url: 'https://x/' }),
      chunk({ content: '</think>', type: 'think' }, 'thinking_end'),
      chunk({ content: 'Q [^1]', type: 'text' }),
      chunk({ content: '', type: 'text', annotations: [{ type: 'url_citation', url_citation: citation }] }, 'stop', {
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
        readURLs: ['https://x/'],
        visitedURLs: ['https://x/', 'https://y/'],
      }),
    ]
    const views = steps.reduce(
      (all, next) => [...all, applyChunk(all.at(-1) ?? emptyView, next)],
      [] as (typeof emptyView)[],
    )
    expect(views[2].steps).toEqual([
      { text: 'Searching this site for “x”.', query: 'x' },
      { text: 'Reading “T”.', url: 'https://x/' },
    ])
    expect(views[2].thinking).toBe(true)
    expect(views[3].thinking).toBe(false)
    expect(views.at(-1)).toMatchObject({ answer: 'Q [^1]', citations: [citation], usage: { total_tokens: 12 } })
  })

  it('reads the steps from reasoning_content, the default stream, where no <think> tags come', () => {
    const steps = [
      chunk({ role: 'assistant', content: '', type: 'think' }),
      chunk({
        reasoning_content: 'Searching this site for “x”.\n',
        reasoning: 'Searching…',
        type: 'think',
        query: 'x',
      }),
      chunk({ content: 'Q [^1]', type: 'text' }),
    ]
    const views = steps.reduce(
      (all, next) => [...all, applyChunk(all.at(-1) ?? emptyView, next)],
      [] as (typeof emptyView)[],
    )
    expect(views[1]).toMatchObject({ thinking: true, steps: [{ text: 'Searching this site for “x”.', query: 'x' }] })
    expect(views[2]).toMatchObject({ thinking: false, answer: 'Q [^1]' })
  })

  it('throws an error chunk as the ApiError of its status, so 402 reads as an exhausted key', () => {
    const error = (() => {
      try {
        applyChunk(emptyView, chunk({ content: '402: Insufficient balance', type: 'error' }, 'error'))
      } catch (thrown) {
        return thrown as ApiError
      }
    })()!
    expect(error).toMatchObject({ status: 402, detail: 'Insufficient balance' })
    expect(streamFailure(error)).toEqual({ kind: 'exhausted', message: '402: Insufficient balance' })
  })

  it('splits an answer at its markers', () => {
    expect(answerParts('One [^1]. Two [^12]')).toEqual([
      { text: 'One ' },
      { cite: 1 },
      { text: '. Two ' },
      { cite: 12 },
    ])
  })
})

describe('the streaming demos’ requests', () => {
  it('asks the reader for a stream, names the engine, and sends only the other options that differ from its defaults', () => {
    const defaults = { engine: 'direct', screenshot: false } as const
    expect(readerHeaders({ format: 'content', links: false, images: false, noCache: false, ...defaults })).toEqual({
      Accept: 'text/event-stream',
      'X-Engine': 'direct',
    })
    expect(readerHeaders({ format: 'html', links: true, images: true, noCache: true, ...defaults })).toEqual({
      Accept: 'text/event-stream',
      'X-Return-Format': 'html',
      'X-Engine': 'direct',
      'X-With-Links-Summary': 'true',
      'X-With-Images-Summary': 'true',
      'X-No-Cache': 'true',
    })
    // The browser engine and a screenshot beside the default text format, as the JS-rendered example asks.
    expect(
      readerHeaders({
        format: 'content',
        links: false,
        images: false,
        noCache: false,
        engine: 'browser',
        screenshot: true,
      }),
    ).toEqual({ Accept: 'text/event-stream', 'X-Return-Format': 'content,screenshot', 'X-Engine': 'browser' })
  })

  it('writes a curl that streams (-N) and sends the headers after the key', () => {
    const command = demoCurl({
      apiBaseUrl: 'https://api.lodestar.test',
      path: '/r',
      body: { url: "https://example.com/it's" },
      key: 'lds_k',
      headers: { Accept: 'text/event-stream', 'X-Return-Format': 'text' },
      stream: true,
    })
    const args = curlArguments(command)
    expect(args.slice(0, 4)).toEqual(['-X', 'POST', 'https://api.lodestar.test/r', '-N'])
    expect(args.slice(4, 12)).toEqual([
      '-H',
      'Content-Type: application/json',
      '-H',
      'Authorization: Bearer lds_k',
      '-H',
      'Accept: text/event-stream',
      '-H',
      'X-Return-Format: text',
    ])
    expect(JSON.parse(args[13])).toEqual({ url: "https://example.com/it's" })
  })
})
