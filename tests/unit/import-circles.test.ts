import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

/**
 * No two files of app/ import each other, however indirectly, type imports included: the linter's
 * import-x/no-cycle does not see through the generated route tree (it is not linted), which once closed a
 * circle of 370 files (start.ts → router → routeTree.gen → every route → … → start.ts).
 */
const root = join(import.meta.dirname, '../..')
const app = join(root, 'app')

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sources(path)
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : []
  })
}

function resolve(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith('~/')
    ? join(app, specifier.slice(2))
    : specifier.startsWith('.')
      ? join(dirname(from), specifier)
      : undefined
  if (!base) return undefined
  const candidates = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx')]
  return candidates.find((path) => path.startsWith(app) && existsSync(path) && statSync(path).isFile())
}

const importPattern = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g

function graph(): Map<string, string[]> {
  const edges = new Map<string, string[]>()
  for (const file of sources(app)) {
    const text = readFileSync(file, 'utf8')
    const targets = [...text.matchAll(importPattern)].map((m) => resolve(file, m[1] ?? m[2]!))
    edges.set(file, [...new Set(targets.filter((t): t is string => !!t))])
  }
  return edges
}

/** Tarjan's strongly connected components: every component of more than one file is a circle. */
function circles(edges: Map<string, string[]>): string[][] {
  let index = 0
  const order = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (node: string) => {
    order.set(node, index)
    low.set(node, index++)
    stack.push(node)
    onStack.add(node)
    for (const next of edges.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next)
        low.set(node, Math.min(low.get(node)!, low.get(next)!))
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!))
    }
    if (low.get(node) === order.get(node)) {
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== node)
      if (component.length > 1) found.push(component.map((file) => relative(root, file)).sort())
    }
  }
  for (const node of edges.keys()) if (!order.has(node)) visit(node)
  return found
}

describe('import circles in app/', () => {
  it('has none but two of types alone', () => {
    expect(circles(graph())).toEqual([
      // The environment's type, named by the request's scope and the runtime's own checks, which env.ts calls.
      ['app/server/env.ts', 'app/server/request-context.ts', 'app/server/runtime.ts'],
      // TanStack Start writes the router's type into the generated route tree the router imports.
      ['app/routeTree.gen.ts', 'app/router.tsx'],
    ])
  })
})
