import { createCsrfMiddleware, createStart } from '@tanstack/react-start'
import { answerHeaders } from './middleware/answer-headers'
import { bodyLimit } from './middleware/body-limit'
import { compression } from './middleware/compression'
import { crossOrigin } from './middleware/cross-origin'
import { liveDeferral } from './middleware/live-deferral'
import { methodCheck } from './middleware/method-check'
import { nodeRouting } from './middleware/node-routing'
import { pagePolicy } from './middleware/page-policy'
import { prerenderedPages } from './middleware/prerendered-pages'
import { requestLine } from './middleware/request-line'
import { requestScope } from './middleware/request-scope'
import { serverFnCalls, serverFnErrors } from './middleware/server-fn-answers'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/**
 * What every request meets, in order, one concern a file (app/middleware/). Each either
 * answers or hands the request on; the first ones also see every answer on its way out.
 */
export const requestMiddleware = [
  requestScope, // the environment and request id for every call; public URLs for the pages
  requestLine, // one log line per request: status and time to its headers
  compression, // on the way out: brotli for pages, gzip for the rest
  answerHeaders, // security headers, CORS, request id on every answer
  crossOrigin, // CORS preflights; cross-site writes refused
  nodeRouting, // edge build: what needs Node goes to a Node instance
  bodyLimit, // 413 before a handler reads an oversized body
  methodCheck, // 405 with Allow; JSON 404 for an unknown API path
  serverFnCalls, // unknown or malformed server function calls: 404/400 {detail}
  prerenderedPages, // a page prerendered at build, served as built
  pagePolicy, // a live page: its nonce and policy
  liveDeferral, // a live page: its runtime starts after the first paint
  serverFnCsrf,
] as const

export const startInstance = createStart(() => ({
  requestMiddleware: [...requestMiddleware],
  functionMiddleware: [serverFnErrors],
}))
