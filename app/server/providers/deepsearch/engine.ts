import type { UrlCitation } from '~/contracts/deepsearch'

/** Host names the caller wants favoured, avoided, or kept to (the request's boost/bad/only_hostnames). */
export interface HostPreferences {
  boost: string[]
  bad: string[]
  only: string[]
}

export interface AgentQuestion {
  /** The last user message. */
  question: string
  /** The messages before it, for an engine that can use the conversation. */
  context: Array<{ role: string; content: string }>
  maxAttempts: number
  /** How many sources the answer may cite at most. */
  maxCitations: number
  /** Search and read before answering, even when the agent thinks it knows. */
  noDirectAnswer: boolean
  hosts: HostPreferences
  /**
   * What the caller asked of the model that writes (OpenAI's options): an engine with a chat model forwards
   * them to it; the built-in engine writes no text of its own, so they are named not applied.
   */
  model: {
    /** The caller's sampling options and end-user id (`modelChatOptions`), as given. */
    sampling: Record<string, unknown>
    /** Tokens the run may write at most (`max_tokens` / `max_completion_tokens`), if the caller set it. */
    maxTokens?: number
    /** `{type: "text"}` when the caller gave it (JSON formats are refused before the run). */
    responseFormat?: Record<string, unknown>
  }
}

/** A page the agent read: its text is what a citation's `exactQuote` must be found in. */
export interface ReadPage {
  url: string
  title: string
  content: string
  /** ISO 8601, when the page says. */
  publishedTime?: string
  /** The content's tokens, when the reader counted them already (in its converter process). */
  tokens?: number
}

/**
 * What an engine works with. The API layer behind it meters every token (read and written) and streams
 * every step, so engines only decide what to search, read and say.
 */
export interface AgentTools {
  /** Reads a URL through the reader (its address rules, limits and cache); throws PageNotRead. */
  read(url: string): Promise<ReadPage>
  /**
   * Asks for `tokens` more to read (a page taken in, a prompt sent to a model): false when the budget cannot
   * spare them and still leave room for the answer (then stop reading and answer).
   */
  allowRead(tokens: number): Promise<boolean>
  /** One reasoning step, streamed as a `think` delta; `url` when it opens a page, `query` when it searches. */
  think(step: { text: string; url?: string; query?: string }): Promise<void>
  /** A piece of the answer, streamed as a `text` delta. */
  write(text: string): Promise<void>
  /** Tokens left in the budget. */
  remaining(): number
  signal: AbortSignal
}

export interface AgentResult {
  /** The answer's sources, in the order of its `[^n]` markers. */
  citations: UrlCitation[]
  /** Every URL the agent came across (search results, links in the question). */
  visitedURLs: string[]
  /** The URLs it read. */
  readURLs: string[]
}

/** A deep-search engine: searches, reads and reasons until it can answer, within what `tools` allow. */
export interface DeepSearchEngine {
  readonly kind: 'builtin' | 'upstream'
  run(question: AgentQuestion, tools: AgentTools): Promise<AgentResult>
}
