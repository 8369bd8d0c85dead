import type * as v from 'valibot'

export type JsonSchema = Record<string, unknown>

type Node = v.GenericSchema & {
  pipe?: Array<{ kind: string; type: string; requirement?: unknown; description?: string }>
  entries?: Record<string, Node>
  item?: Node
  wrapped?: Node
  options?: unknown[]
  literal?: unknown
  value?: Node
  default?: unknown
}

/**
 * Converts the valibot schemas this API uses to JSON Schema (OpenAPI 3.1 dialect). Only the subset the
 * API needs; anything else becomes `{}` (any value) rather than a wrong claim. Transforms are described
 * by their input, which is what a client sends.
 */
export function toJsonSchema(schema: v.GenericSchema): JsonSchema {
  const node = schema as Node
  const out = base(node)
  for (const action of node.pipe?.slice(1) ?? []) applyAction(out, action)
  return out
}

function base(node: Node): JsonSchema {
  switch (node.type) {
    case 'string':
      return { type: 'string' }
    case 'number':
      return { type: 'number' }
    case 'boolean':
      return { type: 'boolean' }
    case 'literal':
      return { const: node.literal }
    case 'picklist':
      return { enum: node.options }
    case 'array':
      return { type: 'array', items: toJsonSchema(node.item!) }
    case 'record':
      return { type: 'object', additionalProperties: toJsonSchema(node.value!) }
    case 'union':
      return { anyOf: (node.options as Node[]).map(toJsonSchema) }
    case 'nullable': {
      const inner = toJsonSchema(node.wrapped!)
      return typeof inner.type === 'string' ? { ...inner, type: [inner.type, 'null'] } : { anyOf: [inner, { type: 'null' }] }
    }
    case 'optional': {
      const inner = toJsonSchema(node.wrapped!)
      return node.default === undefined || typeof node.default === 'function' ? inner : { ...inner, default: node.default }
    }
    case 'object':
    case 'strict_object':
    case 'loose_object': {
      const properties: Record<string, JsonSchema> = {}
      const required: string[] = []
      for (const [name, entry] of Object.entries(node.entries ?? {})) {
        properties[name] = toJsonSchema(entry)
        if (entry.type !== 'optional') required.push(name)
      }
      return { type: 'object', properties, ...(required.length ? { required } : {}), ...(node.type === 'strict_object' ? { additionalProperties: false } : {}) }
    }
    default:
      return {}
  }
}

function applyAction(out: JsonSchema, action: NonNullable<Node['pipe']>[number]): void {
  const isArray = out.type === 'array'
  switch (action.type) {
    case 'min_length':
      out[isArray ? 'minItems' : 'minLength'] = action.requirement
      break
    case 'max_length':
      out[isArray ? 'maxItems' : 'maxLength'] = action.requirement
      break
    case 'min_value':
      if (out.type === 'number' || out.type === 'integer') out.minimum = action.requirement
      break
    case 'max_value':
      if (out.type === 'number' || out.type === 'integer') out.maximum = action.requirement
      break
    case 'integer':
      out.type = 'integer'
      break
    case 'email':
      out.format = 'email'
      break
    case 'url':
      out.format = 'uri'
      break
    case 'uuid':
      out.format = 'uuid'
      break
    case 'iso_date':
      out.format = 'date'
      break
    case 'regex':
      out.pattern = (action.requirement as RegExp).source
      break
    case 'description':
      out.description = action.description
      break
  }
}
