/** RFC 4180 field: quoted when it holds a comma, quote, or line break; quotes doubled. */
export function csvField(value: unknown): string {
  if (value === null || value === undefined) return ''
  let text = String(value)
  // A leading =, +, - or @ makes spreadsheets evaluate the cell; a quote mark keeps it text (OWASP CSV injection).
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

export const csvLine = (row: readonly unknown[]) => `${row.map(csvField).join(',')}\r\n`
