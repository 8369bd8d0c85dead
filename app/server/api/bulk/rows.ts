import { parse } from 'csv-parse'
import { pipeline, Readable } from 'node:stream'
import { bulkLimits } from '~/contracts/bulk'
import { InvalidInput } from '../../domain/refusals'

/** One text of an uploaded file, and the caller's id for it (a CSV file's `id` column) if there is one. */
export interface BulkRow {
  text: string
  id?: string
}

export type FileFormat = 'csv' | 'tsv' | 'lines'

const fileProblem = (msg: string, type = 'invalid_file') => new InvalidInput([{ loc: ['body', 'file'], msg, type }])

/** How a file is read, from its name (then its media type): CSV, TSV, or one text per line. */
export function formatOf(fileName: string, mediaType: string): FileFormat {
  const extension = /\.([a-z0-9]{1,8})$/i.exec(fileName)?.[1]?.toLowerCase()
  if (extension === 'csv') return 'csv'
  if (extension === 'tsv') return 'tsv'
  if (extension === 'txt' || extension === 'text') return 'lines'
  if (!extension) {
    if (mediaType === 'text/csv') return 'csv'
    if (mediaType === 'text/tab-separated-values') return 'tsv'
    if (mediaType === 'text/plain' || mediaType === 'application/octet-stream' || mediaType === '') return 'lines'
  }
  throw fileProblem('must be a .csv, .tsv or .txt file: a CSV with a text column, or one text per line', 'file_type')
}

/** The bytes as text; a file that is not UTF-8 is refused rather than embedded as replacement characters. */
async function* decoded(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true })
  try {
    for await (const chunk of body) yield decoder.decode(chunk, { stream: true })
    yield decoder.decode()
  } catch (error) {
    if (error instanceof TypeError) throw fileProblem('is not UTF-8 text', 'encoding')
    throw error
  }
}

async function* lines(text: AsyncIterable<string>): AsyncGenerator<BulkRow> {
  let rest = ''
  for await (const piece of text) {
    const parts = (rest + piece).split('\n')
    rest = parts.pop() ?? ''
    for (const part of parts) {
      const line = part.trim()
      if (line) yield { text: line }
    }
    // A line that never ends would grow here without bound: hand it on, and bulkRows refuses it as too long.
    if (rest.length > bulkLimits.maxRowCharacters) {
      yield { text: rest }
      rest = ''
    }
  }
  const last = rest.trim()
  if (last) yield { text: last }
}

async function* table(text: AsyncIterable<string>, delimiter: string): AsyncGenerator<BulkRow> {
  // pipeline, not pipe: pipe() never passes the source's failure on (a byte that is not UTF-8, the client
  // going away), so the parser would wait for more input forever and the upload would never be answered.
  // pipeline destroys the parser with that error, which the loop below then throws.
  const records = pipeline(
    Readable.from(text),
    parse({ delimiter, bom: true, skip_empty_lines: true, relax_column_count: true }),
    () => undefined,
  )
  let columns: { text: number; id: number } | undefined
  try {
    for await (const record of records as AsyncIterable<string[]>) {
      if (!columns) {
        const names = record.map((name) => name.trim().toLowerCase())
        columns = { text: names.indexOf('text'), id: names.indexOf('id') }
        if (columns.text < 0)
          throw fileProblem(
            `has no "text" column: its header row names ${names.map((n) => `"${n}"`).join(', ') || 'nothing'}`,
            'missing_column',
          )
        continue
      }
      const textCell = record[columns.text]?.trim()
      if (!textCell) continue
      const id = columns.id >= 0 ? record[columns.id]?.trim() : undefined
      yield id ? { text: textCell, id } : { text: textCell }
    }
  } catch (error) {
    if (error instanceof InvalidInput) throw error
    const message = (error as { code?: string; message?: string })?.message ?? 'could not be read'
    throw fileProblem(`is not a valid ${delimiter === ',' ? 'CSV' : 'TSV'} file: ${message}`, 'csv')
  } finally {
    records.destroy()
  }
}

/**
 * The texts of an uploaded file, in order, held to the job limits: at most `maxRows` texts of at most
 * `maxRowCharacters` each (a 422 naming the text otherwise). Blank lines and empty cells are skipped.
 * Stops at the next text once `signal` aborts: a chunk already read can hold thousands of rows, and
 * counting their tokens for a client that has gone would keep its partial file open all that time.
 */
export async function* bulkRows(
  body: AsyncIterable<Uint8Array>,
  format: FileFormat,
  signal?: AbortSignal,
): AsyncGenerator<BulkRow> {
  const text = decoded(body)
  const rows = format === 'lines' ? lines(text) : table(text, format === 'csv' ? ',' : '\t')
  let count = 0
  for await (const row of rows) {
    signal?.throwIfAborted()
    count++
    if (count > bulkLimits.maxRows)
      throw fileProblem(
        `holds more than ${bulkLimits.maxRows.toLocaleString('en-US')} texts, the limit of one job`,
        'too_many_rows',
      )
    if (row.text.length > bulkLimits.maxRowCharacters)
      throw new InvalidInput([
        {
          loc: ['body', 'file', count],
          msg: `text ${count} is ${row.text.length.toLocaleString('en-US')} characters long, over the limit of ${bulkLimits.maxRowCharacters.toLocaleString('en-US')}`,
          type: 'too_long',
        },
      ])
    if (row.id !== undefined && row.id.length > 1000)
      throw new InvalidInput([
        { loc: ['body', 'file', count], msg: `the id of text ${count} is over 1,000 characters`, type: 'too_long' },
      ])
    yield row
  }
}
