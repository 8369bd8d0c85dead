import { defaultModelIds } from '#content/vocabulary'

/** The hero's rerank call, against the server's own API origin like every other sample (no made-up host). */
export const heroSample = (apiBase: string) => `curl "${apiBase}/v1/rerank" \\
  -H "Authorization: Bearer $API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${defaultModelIds.rerank}",
       "query": "organic skincare",
       "documents": ["...", "..."]}'`
