import { describe, expect, it } from 'vitest'
import { demoCurl, KEY_VARIABLE, shellQuote } from '~/features/demos/lib/curl'
import { curlArguments as argumentsOf } from '../../support/shell'

describe('the demo curl', () => {
  const body = {
    model: 'reranker-v3',
    query: "Don't break on 'quotes', $HOME, `backticks` or \\ backslashes",
    documents: ['line one\nline two', '敏感肌のためのスキンケア'],
    top_n: 2,
  }

  it('sends exactly the demo body with the key to the API base URL', () => {
    const command = demoCurl({ apiBaseUrl: 'https://api.lodestar.test', path: '/v1/rerank', body, key: 'lds_secret' })
    const args = argumentsOf(command)
    expect(args.slice(0, 8)).toEqual([
      '-X',
      'POST',
      'https://api.lodestar.test/v1/rerank',
      '-H',
      'Content-Type: application/json',
      '-H',
      'Authorization: Bearer lds_secret',
      '-d',
    ])
    expect(JSON.parse(args[8])).toEqual(body)
    expect(args).toHaveLength(9)
  })

  it('leaves the Authorization header out when the demo sends no key', () => {
    const command = demoCurl({ apiBaseUrl: 'http://localhost:3000', path: '/v1/segment', body: { content: 'hi' } })
    expect(command).not.toContain('Authorization')
    expect(argumentsOf(command)).toEqual([
      '-X',
      'POST',
      'http://localhost:3000/v1/segment',
      '-H',
      'Content-Type: application/json',
      '-d',
      '{\n    "content": "hi"\n  }',
    ])
  })

  it('shows the body as indented JSON, one option a line, indented under curl', () => {
    const command = demoCurl({ apiBaseUrl: 'https://a.test', path: '/v1/embeddings', body: { input: ['x'] }, key: 'K' })
    expect(command.split(' \\\n  ')).toEqual([
      "curl -X POST 'https://a.test/v1/embeddings'",
      "-H 'Content-Type: application/json'",
      "-H 'Authorization: Bearer K'",
      `-d '{\n    "input": [\n      "x"\n    ]\n  }'`,
    ])
  })

  it("reads the key from the shell's API_KEY when the visitor has none yet", () => {
    const command = demoCurl({ apiBaseUrl: 'https://a.test', path: '/v1/rerank', body, key: KEY_VARIABLE })
    expect(command).toContain('-H "Authorization: Bearer $API_KEY"')
    expect(argumentsOf(`API_KEY=lds_from_env\n${command}`)).toContain('Authorization: Bearer lds_from_env')
  })

  it('quotes for the shell so nothing expands', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`)
    expect(argumentsOf(`curl ${shellQuote("$(echo no) it's `x`")}`)).toEqual(["$(echo no) it's `x`"])
  })
})
