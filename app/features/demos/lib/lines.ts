/** The non-empty lines of a text field, trimmed: how the demos read "one per line" lists. */
export function nonEmptyLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
}
