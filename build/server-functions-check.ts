import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import type { Plugin } from 'vite'

const called = /createSsrRpc\("([0-9a-f]{64})"\)/g
const resolvable = /"([0-9a-f]{64})":\s*\{\s*functionName:/g

function* moduleFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    if (name === 'node_modules') continue
    if (statSync(path).isDirectory()) yield* moduleFiles(path)
    else if (name.endsWith('.mjs')) yield path
  }
}

/**
 * The ids of server functions the server bundle calls during rendering (`createSsrRpc`) that its resolver
 * does not list. Start builds the resolver from the functions it saw while bundling; one reached only from a
 * render branch has been left out, and then every page that calls it answered 500 at run time.
 */
export function unresolvableServerFunctions(serverDir = '.output/server'): string[] {
  const resolverFile = join(serverDir, '_ssr/ssr.mjs')
  if (!existsSync(resolverFile))
    throw new Error(`[server-functions-check] ${resolverFile} not found: Start's output changed, update build/`)
  const listed = new Set([...readFileSync(resolverFile, 'utf8').matchAll(resolvable)].map((m) => m[1]))
  if (listed.size === 0)
    throw new Error(`[server-functions-check] no server-function resolver in ${resolverFile}: Start's output changed`)
  const missing: string[] = []
  for (const file of moduleFiles(serverDir))
    for (const [, id] of readFileSync(file, 'utf8').matchAll(called))
      if (!listed.has(id)) missing.push(`${id} (called in ${file})`)
  return missing
}

/** Stops the Node build when a server function called while rendering could not be resolved at run time. */
export function serverFunctionsCheck(): Plugin {
  return {
    name: 'lodestar:server-functions-check',
    enforce: 'post',
    apply: 'build',
    buildApp: {
      order: 'post',
      async handler() {
        const missing = unresolvableServerFunctions()
        if (missing.length)
          throw new Error(
            `[server-functions-check] server functions called while rendering but missing from Start's resolver: ${missing.join(', ')}. Import the module that defines them where the route module is loaded (see app/routes/{-$locale}/api-dashboard/{-$tab}.tsx).`,
          )
      },
    },
  }
}
