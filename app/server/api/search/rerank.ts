import type * as v from 'valibot'
import { rerankFields, type rerankAnswer, type rerankBody } from '~/contracts/search'
import type { RerankDocument } from '../../providers/inference/engines'
import { servedModel } from '../../providers/inference/select'
import { keyOf, type Caller } from '../caller'
import { limitKeyTokens } from '../rate-limit'
import { chargeRequest, paidFor } from './charge'
import { meterTexts } from './inputs'
import { checkImages, IMAGE_TOKENS, unknownFields } from './model-options'
import type { Served } from './served'

type Body = v.InferOutput<typeof rerankBody>
type Answer = v.InferInput<typeof rerankAnswer>

/**
 * POST /v1/rerank: the documents by relevance to the query, charged for the query and every document.
 * Documents are strings, `{text, …}` or `{image, …}` (multimodal rerankers); an object's other fields (a
 * title, an id) come back with it in `document`.
 */
export async function rerank(caller: Caller, body: Body): Promise<Served<Answer>> {
  const { db, key } = await keyOf(caller, 'rerank')
  const served = await servedModel(body.model, 'rerank')
  caller.requestLog?.noteModel(served.id)
  const engine = served.reranker!
  const unknown = unknownFields(body, rerankFields)
  await checkImages(served, engine, body.documents, ['body', 'documents'])
  const limits = { maxTokens: engine.maxInputTokens, truncate: body.truncate }
  const query = await meterTexts([body.query], { ...limits, loc: ['body', 'query'] })
  const texts = body.documents.map((document) => (typeof document === 'string' ? document : (document.text ?? '')))
  const metered = await meterTexts(texts, { ...limits, loc: ['body', 'documents'] })
  const images = body.documents.filter((document) => typeof document !== 'string' && document.image !== undefined)
  const documents = body.documents.map((document, index): RerankDocument =>
    typeof document !== 'string' && document.image !== undefined ? { image: document.image } : metered.texts[index],
  )
  const tokens = query.tokens + metered.tokens + images.length * IMAGE_TOKENS
  // A batch's lines were counted against the limits when it was created.
  if (!caller.batch) await limitKeyTokens(caller, 'rerank', key, tokens)
  const charge = await chargeRequest(caller, db, key, { tokens, product: 'reranker', model: served.id })
  const upstream = engine.kind === 'upstream'
  const relevance = await paidFor(charge, () =>
    engine.rerank(query.texts[0], documents, {
      requestedModel: body.model,
      passThrough: upstream ? Object.fromEntries(unknown.map((field) => [field, body[field]])) : undefined,
    }),
  )
  const ranked = relevance.scores
    .map((score, index) => ({ index, relevance_score: score }))
    // Equal scores keep the documents' order, so an answer is the same every time.
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, body.top_n ?? body.documents.length)
  const documentOf = (index: number) => {
    const sent = body.documents[index]
    return typeof sent === 'string' ? { text: sent } : sent
  }
  return {
    engine: served.engine,
    notApplied: upstream ? [] : unknown,
    answer: {
      id: caller.requestId,
      model: served.id,
      results: ranked.map((result) =>
        body.return_documents ? { ...result, document: documentOf(result.index) } : result,
      ),
      usage: { total_tokens: tokens },
      meta: {
        api_version: { version: '2' },
        billed_units: { search_units: Math.ceil(body.documents.length / DOCUMENTS_PER_SEARCH_UNIT) },
      },
    },
  }
}

/** Cohere bills a query with up to this many documents as one search unit; the answer's `meta` counts them so. */
const DOCUMENTS_PER_SEARCH_UNIT = 100
