import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { createBuilder, type Plugin } from 'vite'
import { describe, expect, it } from 'vitest'

/**
 * The build refuses server code in a browser bundle (vite.config.ts, `importProtection`). Each case builds
 * the client environment with the project's own config plus one plugin that makes the site header import
 * a server module, and expects the build to fail naming both files. Only the client is built, nothing is
 * written and nothing is prerendered, so a case takes seconds and `.output/` is left alone.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const victim = 'app/components/site/header.tsx'

/** Adds `import { name } from specifier` to the victim, used at module level so tree-shaking keeps it. */
function injectImport(specifier: string, name: string): Plugin {
  return {
    name: 'test:inject-server-import',
    enforce: 'pre',
    transform(code, id) {
      if (this.environment.name !== 'client' || !id.startsWith(`${root}${victim}`)) return
      return `import { ${name} as __leak } from '${specifier}'\n${code}\n;(globalThis as any).__leak = __leak\n`
    },
  }
}

async function buildClient(plugin: Plugin): Promise<unknown> {
  const builder = await createBuilder({
    root,
    configFile: `${root}vite.config.ts`,
    logLevel: 'silent',
    plugins: [plugin],
    environments: { client: { build: { write: false, minify: false, emptyOutDir: false } } },
  })
  try {
    await builder.build(builder.environments.client)
    return undefined
  } catch (error) {
    return error
  }
}

describe('import protection', () => {
  it('has the file to inject into', () => {
    expect(existsSync(`${root}${victim}`), `${victim} moved: point this test at another client component`).toBe(true)
  })

  it('fails the build when client code imports the domain', async () => {
    const error = await buildClient(injectImport('~/server/domain/keys', 'findKey'))
    expect(error, 'the client build passed with ~/server/domain/keys in the header').toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toContain('[import-protection] Import denied in client environment')
    expect(message).toContain(`Importer: ${victim}`)
    expect(message).toContain('Resolved: app/server/domain/keys.ts')
  })

  it('fails the build when client code imports the server environment', async () => {
    const error = await buildClient(injectImport('~/server/env', 'serverEnv'))
    expect(error, 'the client build passed with ~/server/env in the header').toBeInstanceOf(Error)
    const message = (error as Error).message
    expect(message).toContain('[import-protection] Import denied in client environment')
    expect(message).toContain(`Importer: ${victim}`)
    expect(message).toContain('Resolved: app/server/env.ts')
  })
})
