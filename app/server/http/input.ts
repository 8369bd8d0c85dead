import * as v from 'valibot'
import { InvalidInput, type InputIssue } from '../domain/refusals'
import { HttpError } from './errors'

const MAX_BODY_BYTES = 64 * 1024

/** 422 with the `[{loc, msg, type}]` list existing clients of this API family read (api-contracts.md). */
export function validationError(where: 'body' | 'query', issues: v.BaseIssue<unknown>[]): InvalidInput {
  const detail: InputIssue[] = issues.map((issue) => ({
    loc: [where, ...(issue.path?.map((p) => p.key as string | number) ?? [])],
    msg: issue.message,
    type: issue.type,
  }))
  return new InvalidInput(detail)
}

export function validate<S extends v.GenericSchema>(schema: S, input: unknown, where: 'body' | 'query'): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (!result.success) throw validationError(where, result.issues)
  return result.output
}

/** Query parameters as an object; names in `arrays` are always lists (`?tag=a&tag=b`), others must not repeat. */
export function queryObject(request: Request, arrays: string[] = []): Record<string, string | string[]> {
  const params = new URL(request.url).searchParams
  const out: Record<string, string | string[]> = {}
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name)
    if (arrays.includes(name)) out[name] = values
    else if (values.length > 1) throw new InvalidInput([{ loc: ['query', name], msg: 'must be given once', type: 'repeated' }])
    else out[name] = values[0]
  }
  return out
}

export function parseQuery<S extends v.GenericSchema>(request: Request, schema: S, arrays: string[] = []): v.InferOutput<S> {
  return validate(schema, queryObject(request, arrays), 'query')
}

async function readBody(request: Request): Promise<string> {
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large')
  const text = await request.text()
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large')
  return text
}

const mediaType = (request: Request) => (request.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()

export async function parseJson<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  if (mediaType(request) !== 'application/json') throw new HttpError(415, 'Content-Type must be application/json')
  let body: unknown
  try {
    body = JSON.parse(await readBody(request))
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'Malformed JSON body', { cause: error })
  }
  return validate(schema, body, 'body')
}

/** Form fields (urlencoded or multipart) as strings; a file where a field belongs is invalid input. */
export async function parseForm<S extends v.GenericSchema>(request: Request, schema: S): Promise<v.InferOutput<S>> {
  const type = mediaType(request)
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    throw new HttpError(415, 'Content-Type must be application/x-www-form-urlencoded or multipart/form-data')
  }
  const declared = Number(request.headers.get('content-length') ?? 0)
  if (declared > MAX_BODY_BYTES) throw new HttpError(413, 'Request body too large')
  let form: FormData
  try {
    form = type === 'multipart/form-data' ? await request.formData() : new URLSearchParams(await readBody(request)) as unknown as FormData
  } catch (error) {
    if (error instanceof HttpError) throw error
    throw new HttpError(400, 'Malformed form body', { cause: error })
  }
  const out: Record<string, unknown> = {}
  for (const [name, value] of form.entries()) {
    if (name in out) throw new InvalidInput([{ loc: ['body', name], msg: 'must be given once', type: 'repeated' }])
    out[name] = typeof value === 'string' ? value : { file: true }
  }
  return validate(schema, out, 'body')
}
