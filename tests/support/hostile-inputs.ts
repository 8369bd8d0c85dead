/**
 * The hostile inputs of issue 26 that held the event loop with CPU work (token counting of long runs
 * without spaces, then everything done on them), as requests to a served build. Shared by the e2e test,
 * which holds `/healthz/live` to 200 ms under each, and the bench, which records the worst stall.
 */

/** Letters drawn at random, no spaces: one pre-token as long as the text, the quadratic case. */
export function letterRun(length: number, seed: number): string {
  let state = seed
  const letters: string[] = []
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648
    letters.push(String.fromCharCode(97 + (state % 26)))
  }
  return letters.join('')
}

export interface Answer {
  status: number
  body: Record<string, unknown>
}

export interface HostileInput {
  name: string
  send: () => Promise<Answer>
  /** Statuses that are a proper answer: computed, or refused with a detail. */
  expected: number[]
}

export function hostileInputs(baseUrl: string, apiKey: string): HostileInput[] {
  const post = async (path: string, body: unknown, keyed = true): Promise<Answer> => {
    const json = JSON.stringify(body)
    // Building a body of megabytes can take longer than the server keeps an idle connection open: a turn
    // of the loop lets the client see that close before it reuses the connection (else: EPIPE).
    await new Promise((resolve) => setTimeout(resolve, 1))
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(keyed && { authorization: `Bearer ${apiKey}` }) },
      body: json,
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const upload = async (file: string): Promise<Answer> => {
    const form = new FormData()
    form.set('model', 'embeddings-v3')
    form.set('file', new Blob([file], { type: 'text/csv' }), 'rows.csv')
    const response = await fetch(`${baseUrl}/v1/bulk-embeddings`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}` },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  const runs = (count: number, length: number, seed: number) =>
    Array.from({ length: count }, (_, i) => letterRun(length, seed + i))

  return [
    {
      name: 'segment: one run of 200,000 characters',
      send: () => post('/v1/segment', { content: letterRun(200_000, 1) }, false),
      expected: [200],
    },
    {
      name: 'segment: one run of 1,000,000 characters, with its tokens and chunks',
      send: () =>
        post('/v1/segment', { content: letterRun(1_000_000, 2), return_tokens: true, return_chunks: true }, false),
      expected: [200],
    },
    {
      name: 'embeddings: one input of 4,000,000 characters (the largest body), truncated',
      send: () => post('/v1/embeddings', { model: 'embeddings-v3', input: [letterRun(4_000_000, 3)], truncate: true }),
      expected: [200],
    },
    {
      name: 'embeddings: the same without truncate, refused by its count',
      send: () => post('/v1/embeddings', { model: 'embeddings-v3', input: [letterRun(4_000_000, 4)] }),
      expected: [422],
    },
    {
      name: 'rerank: 8 documents of 400,000 characters',
      send: () =>
        post('/v1/rerank', {
          model: 'reranker-v3',
          query: letterRun(20_000, 5),
          documents: runs(8, 400_000, 10),
          truncate: true,
        }),
      expected: [200],
    },
    {
      name: 'classify: 8 inputs of 400,000 characters',
      send: () =>
        post('/v1/classify', {
          model: 'embeddings-v3',
          input: runs(8, 400_000, 20),
          labels: ['news', 'sport'],
        }),
      expected: [200],
    },
    {
      name: 'train: 16 examples of 200,000 characters',
      send: () =>
        post('/v1/train', {
          model: 'embeddings-v3',
          input: runs(16, 200_000, 40).map((text, i) => ({ text, label: i % 2 ? 'a' : 'b' })),
        }),
      expected: [200],
    },
    {
      name: 'deep search: a question of 99,000 characters',
      send: () =>
        post('/v1/chat/completions', {
          model: 'deepsearch-v1',
          stream: false,
          messages: [{ role: 'user', content: letterRun(99_000, 6) }],
        }),
      expected: [200],
    },
    {
      name: 'bulk upload: a row of 100,000 characters',
      send: () => upload(`text\n${letterRun(100_000, 7)}\na short row\n`),
      expected: [200, 201, 202],
    },
  ]
}
