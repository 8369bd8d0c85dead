import * as v from 'valibot'
import { isStorableText, unstorableTextMessage } from '~/contracts/common'
import { InvalidInput, type InputIssue, type Refusal } from '../domain/refusals'
import { bodyLimitFor, readLimited } from './body-limit'
import { HttpError } from './errors'
import { yieldToLoop } from '../paced'

/** Turns problems with some fields into a refusal of their own, where the spec fixes one (thresholds). */
export type RefuseInput = (issues: InputIssue[]) => Refusal | undefined

/** 422 with the `[{loc, msg, type}]` list existing clients of this API family read (api-contracts.md). */
export type InputPlace = 'body' | 'query' | 'header'

export function validationError(where: InputPlace, issues: v.BaseIssue<unknown>[]): InvalidInput {
  const detail: InputIssue[] = issues.map((issue) => ({
    loc: [where, ...(issue.path?.map((p) => p.key as string | number) ?? [])],
    msg: issue.message,
    type: issue.type,
  }))
  return new InvalidInput(detail)
}

/**
 * Where the first text Postgres could not store sits in an input (a value or a field name), if any. Walked
 * without recursion: a 64 KB body can nest thirty thousand levels deep.
 */
function unstorableTextAt(input: unknown): Array<string | number> | undefined {
  type Node = { value: unknown; key?: string | number; parent?: Node }
  const pathOf = (node: Node) => {
    const path: Array<string | number> = []
    for (let at: Node | undefined = node; at?.parent; at = at.parent) path.unshift(at.key!)
    return path
  }
  const pending: Node[] = [{ value: input }]
  for (let node = pending.pop(); node; node = pending.pop()) {
    const { value } = node
    if (typeof value === 'string') {
      if (!isStorableText(value)) return pathOf(node)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const child = { value: item, key: Array.isArray(value) ? Number(key) : key, parent: node }
        if (!isStorableText(key)) return pathOf(child)
        pending.push(child)
      }
    }
  }
  return undefined
}

/** Refuses an input holding a text Postgres could not store (see `validate`). */
function refuseUnstorable(input: unknown, where: InputPlace, refuse?: RefuseInput) {
  const unstorable = unstorableTextAt(input)
  if (!unstorable) return
  const issues = [{ loc: [where, ...unstorable], msg: unstorableTextMessage, type: 'unstorable_text' }]
  throw refuse?.(issues) ?? new InvalidInput(issues)
}

function checkSchema<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  where: InputPlace,
  refuse?: RefuseInput,
): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  const invalid = validationError(where, result.issues)
  throw refuse?.(invalid.issues) ?? invalid
}

/**
 * Checks an input with its contract. Before the schema, for every route and server function alike: no
 * text anywhere in it may hold what Postgres refuses, so one caller's bad character can never fail a
 * statement shared with others.
 */
export function validate<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
  where: InputPlace,
  refuse?: RefuseInput,
): v.InferOutput<S> {
  refuseUnstorable(input, where, refuse)
  return checkSchema(schema, input, where, refuse)
}

/**
 * A server function's validator: the same schema a REST route validates with, refusing with the same
 * 422 list (located in the `body`, where a server function's input travels).
 */
export function validatorOf<S extends v.GenericSchema>(schema: S, refuse?: RefuseInput) {
  return (input: v.InferInput<S>): v.InferOutput<S> => validate(schema, input, 'body', refuse)
}

/** The fields of an object schema that take a list, sent as a repeated query parameter (`?tag=a&tag=b`). */
function listFields(schema: v.GenericSchema): string[] {
  const entries = (schema as { entries?: Record<string, v.GenericSchema & { wrapped?: v.GenericSchema }> }).entries
  return Object.entries(entries ?? {})
    .filter(([, entry]) => (entry.wrapped ?? entry).type === 'array')
    .map(([name]) => name)
}

/**
 * Query parameters as an object; names in `arrays` are always lists, others must not repeat. Without a
 * prototype, so `__proto__` or `constructor` is a parameter like any other (and an unknown one is refused).
 */
export function queryObject(request: Request, arrays: string[] = []): Record<string, string | string[]> {
  const params = new URL(request.url).searchParams
  const out: Record<string, string | string[]> = Object.create(null)
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name)
    if (arrays.includes(name)) out[name] = values
    else if (values.length > 1)
      throw new InvalidInput([{ loc: ['query', name], msg: 'must be given once', type: 'repeated' }])
    else out[name] = values[0]
  }
  return out
}

export function parseQuery<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  refuse?: RefuseInput,
): v.InferOutput<S> {
  return validate(schema, queryObject(request, listFields(schema)), 'query', refuse)
}

/** The request headers an object schema names (by lower-case name), validated; absent ones are left out. */
export function parseHeaders<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  refuse?: RefuseInput,
): v.InferOutput<S> {
  const names = Object.keys((schema as { entries?: Record<string, unknown> }).entries ?? {})
  const out: Record<string, string> = Object.create(null)
  for (const name of names) {
    const value = request.headers.get(name)
    if (value !== null) out[name] = value
  }
  return validate(schema, out, 'header', refuse)
}

/** The body as text, read only up to the route's limit (the request middleware checked it too, for server functions). */
async function readBody(request: Request): Promise<string> {
  return new TextDecoder().decode(await readLimited(request, bodyLimitFor(new URL(request.url).pathname).bytes))
}

const mediaType = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()

/**
 * A body longer than this (the search APIs take 4 MiB) gives the event loop a turn between the passes over
 * it: decoding, parsing and checking 4 MB are 3–8 ms each, and chained in one turn they were one stall of
 * tens of ms (hundreds on a loaded machine). A short body is read in one go, with no added wait.
 */
const PASS_PER_TURN_BYTES = 256 * 1024

export async function parseJson<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  refuse?: RefuseInput,
): Promise<v.InferOutput<S>> {
  if (mediaType(request) !== 'application/json') throw new HttpError(415, 'Content-Type must be application/json')
  const bytes = await readLimited(request, bodyLimitFor(new URL(request.url).pathname).bytes)
  const nextPass = bytes.byteLength > PASS_PER_TURN_BYTES ? yieldToLoop : async () => undefined
  let body: unknown
  try {
    await nextPass()
    const text = new TextDecoder().decode(bytes)
    await nextPass()
    body = JSON.parse(text)
  } catch (error) {
    throw new HttpError(400, 'Malformed JSON body', { cause: error })
  }
  await nextPass()
  refuseUnstorable(body, 'body', refuse)
  await nextPass()
  return checkSchema(schema, body, 'body', refuse)
}

/** Form fields (urlencoded or multipart) as strings; a file where a field belongs is invalid input. */
export async function parseForm<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  refuse?: RefuseInput,
): Promise<v.InferOutput<S>> {
  const type = mediaType(request)
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded or multipart/form-data')
  }
  return validate(schema, await formFields(request, type, () => ({ file: true })), 'body', refuse)
}

/** A form body's fields, each given once, with `fileValue` standing for an uploaded file. */
async function formFields(
  request: Request,
  type: 'application/x-www-form-urlencoded' | 'multipart/form-data',
  fileValue: (file: File) => unknown,
): Promise<Record<string, unknown>> {
  let form: FormData
  try {
    form =
      type === 'multipart/form-data'
        ? await multipartForm(request)
        : (new URLSearchParams(await readBody(request)) as unknown as FormData)
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'Malformed form body', { cause: error })
  }
  const fields: Record<string, unknown> = Object.create(null)
  for (const [name, value] of form.entries()) {
    if (name in fields) throw new InvalidInput([{ loc: ['body', name], msg: 'must be given once', type: 'repeated' }])
    fields[name] = typeof value === 'string' ? value : await fileValue(value)
  }
  return fields
}

/** A multipart form parsed from its body read up to the limit, so a long one is refused rather than held. */
async function multipartForm(request: Request): Promise<FormData> {
  const body = await readLimited(request, bodyLimitFor(new URL(request.url).pathname).bytes)
  return new Response(body, { headers: { 'content-type': request.headers.get('content-type')! } }).formData()
}

/**
 * A body sent as JSON, form-urlencoded or multipart, validated with one schema (the reader's POST takes all
 * three, as the original does). A file in a multipart form arrives as its base64 text under its field's name.
 */
export async function parseJsonOrForm<S extends v.GenericSchema>(
  request: Request,
  schema: S,
  refuse?: RefuseInput,
): Promise<v.InferOutput<S>> {
  const type = mediaType(request)
  if (type === 'application/json') return parseJson(request, schema, refuse)
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data')
    throw new HttpError(
      415,
      'Content-Type must be application/json, application/x-www-form-urlencoded or multipart/form-data',
    )
  const base64 = async (file: File) => Buffer.from(await file.arrayBuffer()).toString('base64')
  return validate(schema, await formFields(request, type, base64), 'body', refuse)
}
