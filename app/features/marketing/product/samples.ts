import type { ProductKey } from '#content/schemas'
import { defaultModelIds } from '#content/vocabulary'

/** Where the visitor's API key goes in a sample; the component swaps in the stored key or a placeholder. */
export const KEY = '{{API_KEY}}'
export const languages = ['curl', 'python', 'javascript'] as const
export type Language = (typeof languages)[number]

/**
 * What stands for the key without a stored one: the `API_KEY` environment variable in every language, as in the
 * documentation's samples (`export API_KEY=…` once, then every sample runs). Each sits in a string that reads
 * it (a double-quoted shell word, a Python f-string, a JavaScript template literal), so a stored key put in
 * its place is a plain string there too.
 */
export const keyPlaceholders: Record<Language, string> = {
  curl: '$API_KEY',
  python: "{os.environ['API_KEY']}",
  javascript: '${process.env.API_KEY}',
}
export type Samples = Record<Language, string>

interface Call {
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: Record<string, unknown>
  /** How the Python and JavaScript samples read the answer. */
  python: string
  javascript: string
}

const indent = (text: string, by: string) => text.replaceAll('\n', `\n${by}`)
const json = (body: unknown) => JSON.stringify(body, null, 2)
const pythonLiteral = (body: unknown) =>
  json(body)
    .replace(/: true\b/g, ': True')
    .replace(/: false\b/g, ': False')
    .replace(/: null\b/g, ': None')

function curl(call: Call, apiBase: string): string {
  const lines = [`curl${call.method === 'GET' ? '' : ` -X ${call.method}`} "${apiBase}${call.path}"`]
  if (call.body) lines.push(`-H "Content-Type: application/json"`)
  lines.push(`-H "Authorization: Bearer ${KEY}"`)
  for (const [name, value] of Object.entries(call.headers ?? {})) lines.push(`-H "${name}: ${value}"`)
  if (call.body) lines.push(`-d '${indent(json(call.body), '  ')}'`)
  return lines.join(' \\\n  ')
}

function python(call: Call, apiBase: string): string {
  const headers = { Authorization: `Bearer ${KEY}`, ...call.headers }
  const args = [`"${apiBase}${call.path}"`, `headers=${indent(json(headers), '    ')}`]
  if (call.body) args.push(`json=${indent(pythonLiteral(call.body), '    ')}`)
  const code = `import os\nimport requests\n\nresponse = requests.${call.method.toLowerCase()}(\n    ${args.join(',\n    ')},\n)\nresponse.raise_for_status()\n${call.python}`
  return code.replace(`"Bearer ${KEY}"`, `f"Bearer ${KEY}"`)
}

function javascript(call: Call, apiBase: string): string {
  const headers = {
    ...(call.body ? { 'Content-Type': 'application/json' } : {}),
    Authorization: `Bearer ${KEY}`,
    ...call.headers,
  }
  const options = [`method: '${call.method}'`, `headers: ${indent(json(headers), '  ')}`]
  if (call.body) options.push(`body: JSON.stringify(${indent(json(call.body), '  ')})`)
  const code = `const response = await fetch('${apiBase}${call.path}', {\n  ${options.join(',\n  ')},\n})\n${call.javascript}`
  return code.replace(`"Bearer ${KEY}"`, `\`Bearer ${KEY}\``)
}

const embeddings: Call = {
  method: 'POST',
  path: '/v1/embeddings',
  body: {
    model: defaultModelIds.embeddings,
    // No `task`: the default engine names it not applied (X-Options-Not-Applied), and the sample should run clean.
    dimensions: 1024,
    input: ['Organic skincare for sensitive skin', 'Bio-Hautpflege für empfindliche Haut'],
  },
  python: 'for item in response.json()["data"]:\n    print(item["index"], item["embedding"][:4])',
  javascript:
    'const { data, usage } = await response.json()\nconsole.log(data[0].embedding.length, usage.total_tokens)',
}

const calls: Record<ProductKey, Call> = {
  reader: {
    method: 'GET',
    path: '/r/https://example.com',
    headers: { 'X-Return-Format': 'markdown' },
    python: 'print(response.text)',
    javascript: 'console.log(await response.text())',
  },
  embeddings,
  reranker: {
    method: 'POST',
    path: '/v1/rerank',
    body: {
      model: defaultModelIds.rerank,
      query: 'Organic skincare products for sensitive skin',
      documents: [
        'Eco-friendly kitchenware for modern homes',
        'Natural organic skincare range for sensitive skin',
        'Sustainable gardening kits for urban spaces',
      ],
      top_n: 2,
    },
    python: 'for result in response.json()["results"]:\n    print(result["index"], result["relevance_score"])',
    javascript:
      'const { results } = await response.json()\nfor (const r of results) console.log(r.index, r.relevance_score)',
  },
  deepsearch: {
    method: 'POST',
    path: '/v1/chat/completions',
    body: {
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: 'Which open embedding models support more than 8K tokens of context?' }],
      reasoning_effort: 'medium',
      stream: false,
    },
    python: 'answer = response.json()\nprint(answer["choices"][0]["message"]["content"])\nprint(answer["visitedURLs"])',
    javascript: 'const answer = await response.json()\nconsole.log(answer.choices[0].message.content)',
  },
  classifier: {
    method: 'POST',
    path: '/v1/classify',
    body: {
      model: defaultModelIds.classify,
      input: ['My order arrived damaged', 'How do I change my password?'],
      labels: ['order shipping and delivery', 'account password and login', 'billing and charges'],
    },
    python: 'for item in response.json()["data"]:\n    print(item["prediction"], item["score"])',
    javascript:
      'const { data } = await response.json()\nfor (const item of data) console.log(item.prediction, item.score)',
  },
  segmenter: {
    method: 'POST',
    path: '/v1/segment',
    body: {
      content: 'Long documents are split into chunks at sentence and paragraph boundaries...',
      tokenizer: 'cl100k_base',
      return_chunks: true,
      max_chunk_length: 1000,
    },
    python: 'result = response.json()\nprint(result["num_tokens"], result["chunks"])',
    javascript: 'const { num_tokens, chunks } = await response.json()\nconsole.log(num_tokens, chunks)',
  },
  'fine-tuning': embeddings,
  // The SERP demo is deep search composing a results page: its sources are the results.
  'llm-serp-demo': {
    method: 'POST',
    path: '/v1/chat/completions',
    body: {
      model: 'deepsearch-v1',
      messages: [{ role: 'user', content: 'listwise reranker 64 documents context window' }],
      reasoning_effort: 'medium',
      stream: false,
    },
    python:
      'answer = response.json()\nfor note in answer["choices"][0]["message"]["annotations"]:\n    result = note["url_citation"]\n    print(result["title"], result["url"], result["exactQuote"])',
    javascript:
      'const answer = await response.json()\nfor (const { url_citation: result } of answer.choices[0].message.annotations)\n  console.log(result.title, result.url, result.exactQuote)',
  },
}

/** "POST /v1/rerank", for the line above the samples. */
export function endpointOf(product: ProductKey): string {
  const call = calls[product]
  return `${call.method} ${call.path.replace(/^\/r\/.*/, '/r/{url}')}`
}

/** The samples of one product against `apiBase`, the server's PUBLIC_API_BASE_URL (no trailing slash). */
export function samplesFor(product: ProductKey, apiBase: string): Samples {
  const call = calls[product]
  return { curl: curl(call, apiBase), python: python(call, apiBase), javascript: javascript(call, apiBase) }
}
