import type { JsonValue, SchemaNode } from './openapi-types'

/** One limit a value must keep; the page words it in the reader's language. */
export type Constraint =
  | { kind: 'length'; min?: number; max?: number }
  | { kind: 'items'; min?: number; max?: number }
  | { kind: 'range'; min?: number; max?: number }
  | { kind: 'format'; value: string }
  | { kind: 'pattern'; value: string }
  | { kind: 'default'; value: string }
  | { kind: 'each'; constraints: Constraint[] }

export interface PropertyRow {
  /** Dotted path from the top, `[]` marking list items: `by_day[].date`. */
  name: string
  depth: number
  type: string
  required: boolean
  description?: string
  constraints: Constraint[]
}

const types = (schema: SchemaNode): string[] => (schema.type === undefined ? [] : [schema.type].flat())
const json = (value: JsonValue) => JSON.stringify(value)

/** A short, language-neutral type: `string`, `integer[]`, `string | null`, `map<string, number>`, `"true"`. */
export function typeLabel(schema: SchemaNode): string {
  if (schema.const !== undefined) return json(schema.const)
  if (schema.enum) return schema.enum.map(json).join(' | ')
  if (schema.anyOf) return schema.anyOf.map(typeLabel).join(' | ')
  const names = types(schema).map((type) => {
    if (type === 'array') {
      const item = schema.items ? typeLabel(schema.items) : 'any'
      return item.includes('|') ? `(${item})[]` : `${item}[]`
    }
    if (type === 'object' && !schema.properties && typeof schema.additionalProperties === 'object')
      return `map<string, ${typeLabel(schema.additionalProperties)}>`
    return type
  })
  return names.length ? names.join(' | ') : 'any'
}

export function constraintsOf(schema: SchemaNode): Constraint[] {
  const out: Constraint[] = []
  if (schema.minLength !== undefined || schema.maxLength !== undefined)
    out.push({ kind: 'length', min: schema.minLength, max: schema.maxLength })
  if (schema.minItems !== undefined || schema.maxItems !== undefined)
    out.push({ kind: 'items', min: schema.minItems, max: schema.maxItems })
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    out.push({ kind: 'range', min: schema.minimum, max: schema.maximum })
  if (schema.format) out.push({ kind: 'format', value: schema.format })
  if (schema.pattern) out.push({ kind: 'pattern', value: schema.pattern })
  if (schema.default !== undefined) out.push({ kind: 'default', value: json(schema.default) })
  const itemConstraints = types(schema).includes('array') && schema.items ? constraintsOf(schema.items) : []
  if (itemConstraints.length) out.push({ kind: 'each', constraints: itemConstraints })
  return out
}

/** The object whose properties describe this value: itself, a list's item, or the non-null side of a union. */
export function objectOf(schema: SchemaNode): { object: SchemaNode; list: boolean } | undefined {
  if (schema.properties) return { object: schema, list: false }
  if (types(schema).includes('array') && schema.items) {
    const inner = objectOf(schema.items)
    return inner && { object: inner.object, list: true }
  }
  const options = schema.anyOf?.filter((option) => !types(option).includes('null') || option.properties) ?? []
  return options.length === 1 ? objectOf(options[0]!) : undefined
}

/** Every property of an object schema, nested ones flattened under their parent, in document order. */
export function propertyRows(schema: SchemaNode, prefix = '', depth = 0): PropertyRow[] {
  const target = objectOf(schema)
  if (!target) return []
  const required = target.object.required ?? []
  return Object.entries(target.object.properties ?? {}).flatMap(([name, property]) => {
    const row: PropertyRow = {
      name: `${prefix}${name}`,
      depth,
      type: typeLabel(property),
      required: required.includes(name),
      description: property.description,
      constraints: constraintsOf(property),
    }
    const nested = objectOf(property)
    return [row, ...(nested ? propertyRows(property, `${prefix}${name}${nested.list ? '[]' : ''}.`, depth + 1) : [])]
  })
}
