import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The id the build gave a server function, read from its server bundle: the browser calls it at
 * /_serverFn/<id>. `module` is its source file's name without the extension, e.g. "contact.functions".
 */
export function serverFnId(module: string, name: string): string {
  const dir = join(process.cwd(), '.output/server/_ssr')
  const declared = new RegExp(`id: "([0-9a-f]{64})",\\s*name: "${name}"`)
  for (const file of readdirSync(dir).filter((entry) => entry.startsWith(`${module}-`))) {
    const id = declared.exec(readFileSync(join(dir, file), 'utf8'))?.[1]
    if (id) return id
  }
  throw new Error(`no ${name} in the build's ${module}`)
}
