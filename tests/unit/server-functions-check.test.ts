import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { unresolvableServerFunctions } from '../../build/server-functions-check'

const id = (digit: string) => digit.repeat(64)
const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A server output as Nitro writes it: the resolver in `_ssr/ssr.mjs`, and modules that call functions. */
function serverOutput(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'server-fns-'))
  dirs.push(dir)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

const resolver = (...ids: string[]) =>
  `var manifest = {\n${ids.map((i) => `\t"${i}": {\n\t\tfunctionName: "f_${i[0]}",\n\t\timporter: () => import("./f.mjs")\n\t}`).join(',\n')}\n};`

describe('the build check of server functions called while rendering', () => {
  it('passes when the resolver lists every function the server bundle calls', () => {
    const dir = serverOutput({
      '_ssr/ssr.mjs': resolver(id('a'), id('b')),
      '_ssr/queries.mjs': `const x = createSsrRpc("${id('a')}"); const y = createSsrRpc("${id('b')}")`,
    })
    expect(unresolvableServerFunctions(dir)).toEqual([])
  })

  it('names a function called in a render branch that the resolver left out, and where it is called', () => {
    const dir = serverOutput({
      '_ssr/ssr.mjs': resolver(id('a')),
      '_tab.mjs': `createSsrRpc("${id('a')}"); createSsrRpc("${id('c')}")`,
    })
    expect(unresolvableServerFunctions(dir)).toEqual([`${id('c')} (called in ${join(dir, '_tab.mjs')})`])
  })

  it("fails loudly when Start's output no longer has the resolver where the check reads it", () => {
    expect(() => unresolvableServerFunctions(serverOutput({ 'index.mjs': '' }))).toThrow(/ssr\.mjs not found/)
    expect(() => unresolvableServerFunctions(serverOutput({ '_ssr/ssr.mjs': 'var x = 1' }))).toThrow(
      /no server-function resolver/,
    )
  })
})
