// What a build is made of, as one hash: `npm start` compares it with the hash the build recorded, so it
// never serves code older than the checkout. Read by content, not by modification time, so a fresh
// clone of the same commit counts as built.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

/** Folders and files the build reads. Tests, docs and CI scripts change nothing the server runs. */
const inputs = [
  'app',
  'build',
  'content',
  'locales',
  'public',
  'scripts',
  'app.config.ts',
  'lingui.config.ts',
  'package-lock.json',
  'package.json',
  'tsconfig.json',
  'vite.config.ts',
]

/** Written by the build itself (the route tree from the route files, compiled catalogs from the .po files). */
const generated = [/^app\/routeTree\.gen\.ts$/, /^locales\/[^/]+\/[^/]+\.m?js$/]

/** Where the build records the hash of the sources it was made from. */
export const recordedHashFile = '.output/source-hash'

export function sourceHash(root = process.cwd()) {
  const hash = createHash('sha256')
  const files = inputs.flatMap((input) => filesUnder(root, input)).sort()
  for (const file of files) {
    hash.update(`${file}\0`)
    hash.update(readFileSync(join(root, file)))
    hash.update('\0')
  }
  return hash.digest('hex')
}

function filesUnder(root, path) {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return generated.some((pattern) => pattern.test(path)) ? [] : [path]
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split('\\').join('/'))
    .filter((file) => !generated.some((pattern) => pattern.test(file)))
}
