import type { ChatMessage } from './llm'

export interface NumberedPassage {
  title: string
  url: string
  text: string
}

const passageList = (passages: NumberedPassage[]) =>
  passages.length ? passages.map((p, i) => `[${i + 1}] ${p.title} (${p.url})\n${p.text}`).join('\n\n') : '(none yet)'

/** The conversation before the question, so a follow-up question ("and the smaller one?") can be understood. */
export function conversationText(context: Array<{ role: string; content: string }>): string {
  if (context.length === 0) return ''
  const lines = context.map((message) => `${message.role}: ${message.content}`)
  return `Earlier in the conversation:\n${lines.join('\n')}\n\n`
}

export type Plan = { think: string; action: 'search'; queries: string[] } | { think: string; action: 'answer' }

/** Asks the model whether the passages answer the question, or what to search for next. */
export function planMessages(
  question: string,
  passages: NumberedPassage[],
  attempt: number,
  attempts: number,
  conversation = '',
): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'You are the reasoning step of a research agent that searches the web, reads pages and answers with citations. ' +
        'Decide whether the numbered passages are enough to answer the question. Reply with one JSON object and nothing else: ' +
        '{"think": "one or two sentences of reasoning", "action": "search", "queries": ["up to 3 web search queries"]} ' +
        'to look for more, or {"think": "one or two sentences of reasoning", "action": "answer"} when the passages suffice.',
    },
    {
      role: 'user',
      content: `${conversation}Question: ${question}\n\nPassages:\n${passageList(passages)}\n\nThis is search round ${attempt} of ${attempts}.`,
    },
  ]
}

/** The model's plan, read leniently (the first JSON object in its reply); anything unreadable means "search with the question". */
export function readPlan(reply: string, question: string): Plan {
  const json = reply.slice(reply.indexOf('{'), reply.lastIndexOf('}') + 1)
  try {
    const plan = JSON.parse(json) as { think?: unknown; action?: unknown; queries?: unknown }
    const think = typeof plan.think === 'string' ? plan.think.trim() : ''
    if (plan.action === 'answer') return { think, action: 'answer' }
    const queries = Array.isArray(plan.queries)
      ? plan.queries.filter((q): q is string => typeof q === 'string' && q.trim() !== '').slice(0, 3)
      : []
    return { think, action: 'search', queries: queries.length ? queries : [question] }
  } catch {
    return { think: '', action: 'search', queries: [question] }
  }
}

export function answerMessages(question: string, passages: NumberedPassage[], conversation = ''): ChatMessage[] {
  return [
    {
      role: 'system',
      content:
        'Answer the question using only the numbered passages. After each sentence that relies on a passage, cite it ' +
        "as [^n] with that passage's number. Be concise. If the passages do not answer the question, say so plainly.",
    },
    { role: 'user', content: `${conversation}Question: ${question}\n\nPassages:\n${passageList(passages)}` },
  ]
}
