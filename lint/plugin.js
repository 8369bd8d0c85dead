// The layer rules ESLint and import-x do not have: which packages a layer may import (static, re-exported,
// dynamic or required alike), and that every source file is in a layer.
import { isBuiltin } from 'node:module'

/** The package a specifier names (`@scope/name`, `name`), or the specifier itself for `node:` and `virtual:`. */
function packageOf(specifier) {
  if (/^[a-z]+:/.test(specifier)) return specifier
  if (isBuiltin(specifier)) return `node:${specifier}`
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

/** Whether a specifier is one of `patterns`: a package by name (any of its subpaths), a subpath exactly, or `node:*`. */
function matches(specifier, patterns) {
  const name = packageOf(specifier)
  const full = isBuiltin(specifier) && !specifier.startsWith('node:') ? `node:${specifier}` : specifier
  return patterns.some((pattern) =>
    pattern === 'node:*' ? name.startsWith('node:') : pattern === name || pattern === full,
  )
}

/** App files and aliases (`./`, `~/`, `#content/`, `#config`) are the paths rule's business, not a package. */
const isAppPath = (specifier) => /^[.~#/]/.test(specifier)

const packages = {
  meta: {
    type: 'problem',
    docs: { description: 'A layer imports only the packages it is allowed' },
    schema: [
      {
        type: 'object',
        properties: {
          allow: { type: 'array', items: { type: 'string' } },
          deny: { type: 'array', items: { type: 'string' } },
          layer: { type: 'string' },
          advice: { type: 'string' },
        },
        additionalProperties: false,
      },
    ],
  },
  create(context) {
    const { allow, deny = [], layer, advice } = context.options[0] ?? {}
    const refused = (specifier) => (allow ? !matches(specifier, allow) : matches(specifier, deny))
    const what = allow ? `only ${allow.join(', ')}` : `any package but ${deny.join(', ')}`
    const check = (node, source) => {
      if (!source) return
      if (source.type !== 'Literal' && !(source.type === 'TemplateLiteral' && source.expressions.length === 0)) {
        // A name computed at run time could be any package: only layers that may import any package may do it.
        // A template that starts with an app path (`../../locales/${locale}/…`) stays in that folder: the bundler
        // resolves it to the files there.
        const prefix = source.type === 'TemplateLiteral' ? source.quasis[0].value.cooked : undefined
        if (allow && !(prefix && isAppPath(prefix)))
          context.report({
            node,
            message: `The ${layer} layer imports ${what}, so it names every module it imports literally (a computed import() could load anything). ${advice}`,
          })
        return
      }
      const specifier = source.type === 'Literal' ? source.value : source.quasis[0].value.cooked
      if (typeof specifier !== 'string' || isAppPath(specifier) || !refused(specifier)) return
      context.report({
        node,
        message: `The ${layer} layer imports ${what} of packages, not '${specifier}'. ${advice}`,
      })
    }
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
      CallExpression(node) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'require') check(node, node.arguments[0])
      },
    }
  },
}

const unassigned = {
  meta: {
    type: 'problem',
    docs: { description: 'Every source file belongs to a layer' },
    schema: [],
  },
  create(context) {
    return {
      Program(node) {
        context.report({
          node,
          message:
            'This file is in no layer, so no import rule covers it: add it (or its folder) to a layer in lint/layers.js.',
        })
      },
    }
  },
}

export default { meta: { name: 'layers' }, rules: { packages, unassigned } }
