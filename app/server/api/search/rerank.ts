import type * as v from 'valibot'
import type { rerankAnswer, rerankBody } from '~/contracts/search'
import { engines } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { meterTexts } from './inputs'
import { checkModel } from './models'

type Body = v.InferOutput<typeof rerankBody>

/** POST /v1/rerank: the documents by relevance to the query, charged for the query and every document. */
export async function rerank(caller: Caller, body: Body): Promise<v.InferInput<typeof rerankAnswer>> {
  const { db, key } = await keyOf(caller, 'rerank')
  const { reranker: engine } = await engines()
  checkModel('rerank', body.model, engine)
  const limits = { maxTokens: engine.maxInputTokens, truncate: body.truncate }
  const query = await meterTexts([body.query], { ...limits, loc: ['body', 'query'] })
  const documents = await meterTexts(body.documents, { ...limits, loc: ['body', 'documents'] })
  const tokens = query.tokens + documents.tokens
  await limitKeyTokens('rerank', key, tokens)
  const charge = await chargeRequest(db, key, { tokens, product: 'reranker', model: body.model })
  const relevance = await paidFor(charge, () =>
    engine.rerank(query.texts[0], documents.texts, { requestedModel: body.model }),
  )
  const ranked = relevance.scores
    .map((score, index) => ({ index, relevance_score: score }))
    // Equal scores keep the documents' order, so an answer is the same every time.
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, body.top_n ?? body.documents.length)
  return {
    model: relevance.model,
    results: ranked.map((result) =>
      body.return_documents ? { ...result, document: { text: body.documents[result.index] } } : result,
    ),
    usage: { total_tokens: tokens },
  }
}
