import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createElement, type ComponentType } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { twMerge } from 'tailwind-merge'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * `cn` joins classes without resolving conflicts (tailwind-merge cost 8 KB gzip on every page), so two
 * utilities for the same property must never meet: which one wins would depend on Tailwind's CSS order,
 * not on the order written. This test finds every place classes are combined, in `cn(...)` calls and
 * in the `className` given to a ui component, and asks tailwind-merge whether one side would override
 * the other.
 */
const uiDir = 'app/components/ui'
const sourceFiles = readdirSync('app', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.tsx'))
  .map((file) => join('app', file))

const uiModules = await Promise.all(
  readdirSync(uiDir)
    .filter((file) => file.endsWith('.tsx'))
    .map((file) => import(/* @vite-ignore */ `../../${uiDir}/${file}`) as Promise<Record<string, unknown>>),
)
const uiComponents = new Map<string, ComponentType<Record<string, unknown>>>()
for (const module of uiModules) {
  for (const [name, value] of Object.entries(module))
    if (/^[A-Z]/.test(name) && typeof value === 'function')
      uiComponents.set(name, value as ComponentType<Record<string, unknown>>)
}

/** The classes a ui component renders on its outer element for the given props, or undefined if it needs a context to render. */
function baseClasses(name: string, props: Record<string, string>): string | undefined {
  try {
    // Meter needs its scale; nothing else gets extra props (an Input with a value would warn).
    const required = name === 'Meter' ? { value: 0, max: 1 } : {}
    const html = renderToStaticMarkup(createElement(uiComponents.get(name)!, { ...required, ...props }))
    return /class="([^"]*)"/.exec(html)?.[1]
  } catch {
    return undefined
  }
}

const tokens = (s: string) => s.split(/\s+/).filter(Boolean)

/** Classes of `first` that tailwind-merge would drop in favour of something in `second`. */
function overridden(first: string, second: string): string[] {
  const kept = new Set(tokens(twMerge(`${first} ${second}`)))
  const later = new Set(tokens(second))
  return tokens(first).filter((c) => !kept.has(c) && !later.has(c))
}

const MAX_ALTERNATIVES = 64
/** Every combination of the alternatives of each part, joined (capped: a long chain of conditions is checked in part). */
function combine(parts: string[][]): string[] {
  return parts.reduce<string[]>(
    (acc, options) => acc.flatMap((a) => options.map((o) => `${a} ${o}`)).slice(0, MAX_ALTERNATIVES),
    [''],
  )
}

/**
 * The class strings an expression can evaluate to: each branch of a condition is its own alternative
 * (they never apply together); literals, templates, local string constants and nested `cn` calls are
 * followed. Values from lookups (tone maps) and other calls count as empty: they are checked where written.
 */
function alternatives(node: ts.Node, constants: Map<string, ts.Expression>, seen = new Set<string>()): string[] {
  const alt = (n: ts.Node) => alternatives(n, constants, seen)
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text]
  if (ts.isTemplateExpression(node))
    return combine([
      [node.head.text],
      ...node.templateSpans.flatMap((span) => [alt(span.expression), [span.literal.text]]),
    ])
  if (ts.isIdentifier(node)) {
    const value = constants.get(node.text)
    return value && !seen.has(node.text) ? alternatives(value, constants, new Set([...seen, node.text])) : ['']
  }
  if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'cn')
    return combine(node.arguments.map(alt))
  if (ts.isJsxExpression(node)) return node.expression ? alt(node.expression) : ['']
  if (ts.isConditionalExpression(node)) return [...alt(node.whenTrue), ...alt(node.whenFalse)]
  if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return [...alt(node.right), '']
    if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken)
      return [...alt(node.left), ...alt(node.right)]
    if (op === ts.SyntaxKind.PlusToken) return combine([alt(node.left), alt(node.right)])
  }
  if (ts.isParenthesizedExpression(node)) return alt(node.expression)
  return ['']
}

interface Conflict {
  where: string
  dropped: string[]
  by: string
}

function findConflicts(file: string): Conflict[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX)
  const constants = new Map<string, ts.Expression>()
  const conflicts: Conflict[] = []
  const at = (node: ts.Node) => `${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`

  const collect = (node: ts.Node) => {
    if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.initializer &&
      (ts.isStringLiteral(node.initializer) ||
        ts.isNoSubstitutionTemplateLiteral(node.initializer) ||
        ts.isTemplateExpression(node.initializer))
    ) {
      constants.set(node.name.text, node.initializer)
    }
    ts.forEachChild(node, collect)
  }
  collect(source)

  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'cn') {
      const args = node.arguments.map((arg) => alternatives(arg, constants))
      for (let i = 0; i < args.length; i++) {
        for (let j = i + 1; j < args.length; j++) {
          for (const first of args[i]) {
            for (const second of args[j]) {
              const dropped = overridden(first, second)
              if (dropped.length) conflicts.push({ where: at(node), dropped, by: second.trim() })
            }
          }
        }
      }
    }
    if (
      (ts.isJsxOpeningElement(node) || ts.isJsxSelfClosingElement(node)) &&
      uiComponents.has(node.tagName.getText(source)) &&
      !file.startsWith(uiDir)
    ) {
      const name = node.tagName.getText(source)
      const props: Record<string, string> = {}
      let callers: string[] = []
      for (const attribute of node.attributes.properties) {
        if (!ts.isJsxAttribute(attribute) || !attribute.initializer) continue
        const prop = attribute.name.getText(source)
        if (prop === 'className') callers = alternatives(attribute.initializer, constants)
        else if (ts.isStringLiteral(attribute.initializer)) props[prop] = attribute.initializer.text
      }
      const base = callers.length > 0 ? baseClasses(name, props) : undefined
      for (const caller of base ? callers : []) {
        const dropped = overridden(base!, caller)
        if (dropped.length) conflicts.push({ where: `${at(node)} <${name}>`, dropped, by: caller.trim() })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return conflicts
}

describe('class names', () => {
  it('finds the ui components and the files to check', () => {
    expect(uiComponents.has('Button')).toBe(true)
    expect(baseClasses('Button', { size: 'sm' })).toContain('h-8')
    expect(sourceFiles.length).toBeGreaterThan(50)
    // The check itself: a caller overriding a component's padding is reported.
    expect(overridden('flex flex-col gap-1.5 p-5 pb-0', 'pb-5')).toEqual(['pb-0'])
  })

  it('gives every variant of a component one utility per property', () => {
    const rendered = [
      ...['default', 'destructive', 'outline', 'secondary', 'ghost', 'link', 'onPrimary'].flatMap((variant) =>
        ['default', 'sm', 'lg', 'icon'].map((size) => [
          `Button ${variant} ${size}`,
          baseClasses('Button', { variant, size }),
        ]),
      ),
      ...['default', 'secondary', 'outline', 'accent', 'success'].map((variant) => [
        `Badge ${variant}`,
        baseClasses('Badge', { variant }),
      ]),
      ['CardHeader row', baseClasses('CardHeader', { row: 'true' })],
      ['TableHead numeric', baseClasses('TableHead', { numeric: 'true' })],
      ['TableCell numeric', baseClasses('TableCell', { numeric: 'true' })],
    ]
    for (const [name, classes] of rendered) {
      expect(classes, name).toBeTruthy()
      expect(overridden(classes!, ''), name).toEqual([])
    }
  })

  it('never combines two utilities for the same property', () => {
    const conflicts = sourceFiles.flatMap(findConflicts)
    expect(conflicts.map((c) => `${c.where}: ${c.dropped.join(' ')} overridden by "${c.by}"`)).toEqual([])
  })
})
