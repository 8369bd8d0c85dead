/**
 * Runs a request through request middleware as Start does (app/start.ts lists them): each either answers
 * (returns or throws a Response) or calls `next`, which may add to the context; a Response thrown during a
 * server function call reaches its caller marked as thrown. `terminal` stands for Start's own handling.
 */
type Next = (options?: { context?: Record<string, unknown> }) => Promise<Ctx>
type Ctx = { request: Request; pathname: string; context: Record<string, unknown>; response?: Response }
type Server = (ctx: Ctx & { handlerType: string; next: Next }) => Promise<Response | Ctx> | Response | Ctx

export async function runPipeline(
  middlewares: readonly unknown[],
  request: Request,
  terminal: (context: Record<string, unknown>) => Response | Promise<Response>,
): Promise<{ response: Response; context: Record<string, unknown> }> {
  const pathname = new URL(request.url).pathname
  const serverFn = pathname.startsWith('/_serverFn/')
  const ctx: Ctx = { request, pathname, context: {} }
  const run = async (index: number): Promise<Ctx> => {
    try {
      if (index === middlewares.length) {
        ctx.response = await terminal(ctx.context)
        return ctx
      }
      const server = (middlewares[index] as { options: { server: Server } }).options.server
      const result = await server({
        ...ctx,
        handlerType: serverFn ? 'serverFn' : 'router',
        next: async (options) => {
          if (options?.context) ctx.context = { ...ctx.context, ...options.context }
          return run(index + 1)
        },
      })
      ctx.response = result instanceof Response ? result : (result.response ?? ctx.response)
      return ctx
    } catch (error) {
      if (!(error instanceof Response)) throw error
      if (serverFn) error.headers.set('x-tss-raw', 'thrown')
      ctx.response = error
      return ctx
    }
  }
  await run(0)
  return { response: ctx.response!, context: ctx.context }
}
