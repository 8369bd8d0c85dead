import { createHash } from 'node:crypto'

/** Inline scripts a page's policy allows by hash: every `<script>` without `src`, but JSON-LD (data, never run). */
const inlineScript = /<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g

/** The CSP source of each inline script of `html`, once each: what the build records and a rebased page recomputes. */
export function inlineScriptHashes(html: string): string[] {
  const hashes = [...html.matchAll(inlineScript)].map(
    ([, body]) => `sha256-${createHash('sha256').update(body!).digest('base64')}`,
  )
  return [...new Set(hashes)]
}
