/**
 * Transaction cursors are opaque to clients: the id of the last entry they saw, wrapped so nobody comes
 * to rely on its form. Web APIs only (btoa/atob), so the contracts can check a cursor on either side.
 */
const toBase64Url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

export function encodeCursor(id: number): string {
  return toBase64Url(`e${id}`)
}

export function decodeCursor(cursor: string): number | undefined {
  if (!/^[\w-]{1,64}$/.test(cursor)) return undefined
  let text: string
  try {
    text = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'))
  } catch {
    return undefined
  }
  const match = /^e(\d{1,18})$/.exec(text)
  // A longer id than JavaScript numbers hold exactly would name another entry.
  return match && Number.isSafeInteger(Number(match[1])) ? Number(match[1]) : undefined
}
