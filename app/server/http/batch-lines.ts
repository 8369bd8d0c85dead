import { classifyBody, embeddingsBody, rerankBody } from '~/contracts/search'
import type { AnswerLine } from '../api/batches/lines'
import { classify } from '../api/search/classify'
import { createEmbeddings } from '../api/search/embeddings'
import { rerank } from '../api/search/rerank'
import { publicAnswer } from './errors'
import { validate } from './input'

/**
 * One line of a batch, answered as POST to its endpoint would be: the same contract, the same operation (its
 * tokens collected for the batch's charge instead of debited), and the same `{detail}` with its status when
 * it is refused.
 */
export const answerBatchLine: AnswerLine = async (endpoint, body, caller) => {
  try {
    switch (endpoint) {
      case '/v1/embeddings':
        return { status: 200, body: (await createEmbeddings(caller, validate(embeddingsBody, body, 'body'))).answer }
      case '/v1/rerank':
        return { status: 200, body: (await rerank(caller, validate(rerankBody, body, 'body'))).answer }
      case '/v1/classify':
        return { status: 200, body: (await classify(caller, validate(classifyBody, body, 'body'))).answer }
    }
  } catch (error) {
    const answer = publicAnswer(error)
    return { status: answer.status, body: { detail: answer.detail } }
  }
}
