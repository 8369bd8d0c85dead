import { createCsrfMiddleware, createStart } from '@tanstack/react-start'
import { answerHeaders } from './server/http/middleware/answer-headers'
import { bodyLimit } from './server/http/middleware/body-limit'
import { compression } from './server/http/middleware/compression'
import { crossOrigin } from './server/http/middleware/cross-origin'
import { methodCheck } from './server/http/middleware/method-check'
import { nodeRouting } from './server/http/middleware/node-routing'
import { pagePolicy } from './server/http/middleware/page-policy'
import { prerenderedPages } from './server/http/middleware/prerendered-pages'
import { requestScope } from './server/http/middleware/request-scope'
import { serverFnCalls, serverFnErrors } from './server/http/middleware/server-fn-answers'

/** Start's own defence for server functions (it is no longer added by default once this file exists). */
const serverFnCsrf = createCsrfMiddleware({ filter: (ctx) => ctx.handlerType === 'serverFn' })

/**
 * What every request meets, in order, one concern a file (app/server/http/middleware/). Each either
 * answers or hands the request on; the first ones also see every answer on its way out.
 */
export const requestMiddleware = [
  requestScope, // the environment and request id for every call; public URLs for the pages
  compression, // gzip on the way out
  answerHeaders, // security headers, CORS, request id on every answer
  crossOrigin, // CORS preflights; cross-site writes refused
  nodeRouting, // edge build: what needs Node goes to a Node instance
  bodyLimit, // 413 before a handler reads an oversized body
  methodCheck, // 405 with Allow; JSON 404 for an unknown API path
  serverFnCalls, // unknown or malformed server function calls: 404/400 {detail}
  prerenderedPages, // a page prerendered at build, served as built
  pagePolicy, // a live page: its nonce and policy
  serverFnCsrf,
] as const

export const startInstance = createStart(() => ({
  requestMiddleware: [...requestMiddleware],
  functionMiddleware: [serverFnErrors],
}))
