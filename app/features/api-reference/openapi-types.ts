/** The part of an OpenAPI 3.1 document the reference page reads; everything in it is plain JSON. */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue }

export interface SchemaNode {
  type?: string | string[]
  const?: JsonValue
  enum?: JsonValue[]
  anyOf?: SchemaNode[]
  items?: SchemaNode
  properties?: Record<string, SchemaNode>
  required?: string[]
  additionalProperties?: SchemaNode | boolean
  description?: string
  default?: JsonValue
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  minimum?: number
  maximum?: number
}

export interface ParameterObject {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  description?: string
  schema?: SchemaNode
}

export interface MediaTypeObject {
  schema?: SchemaNode
  example?: JsonValue
}

export interface ResponseObject {
  description: string
  content?: Record<string, MediaTypeObject>
}

export type ResponseOrRef = ResponseObject | { $ref: string }

export interface OperationObject {
  summary?: string
  description?: string
  tags?: string[]
  /** An endpoint for this deployment's own services (metering), not for visitors: the page leaves it out. */
  'x-internal'?: boolean
  security?: Array<Record<string, string[]>>
  parameters?: ParameterObject[]
  requestBody?: { required?: boolean; content: Record<string, MediaTypeObject> }
  responses: Record<string, ResponseOrRef>
}

export interface OpenApiDocument {
  openapi: string
  info: { title: string; version: string; description?: string }
  servers?: Array<{ url: string }>
  paths: Record<string, Record<string, OperationObject>>
  components?: {
    securitySchemes?: Record<string, { type: string; scheme?: string; description?: string }>
    responses?: Record<string, ResponseObject>
  }
}
