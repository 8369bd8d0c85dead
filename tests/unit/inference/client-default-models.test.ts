import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ApiCapability } from '#content/vocabulary'
import { buildRegistry } from '~/server/providers/inference/registry'

/**
 * The model names this API family's client libraries send when the developer names none: each must be served
 * (an alias of a catalogue model that does what the client asks), or the client fails with its defaults.
 * Where the library is installed (devDependencies), its source is read, so an upgrade that changes a
 * default fails here instead of in a developer's hands.
 */
const require = createRequire(import.meta.url)
const packageFile = (name: string, file: string) => {
  // Some packages export no package.json: find their folder from the entry point.
  const entry = require.resolve(name)
  return join(entry.slice(0, entry.lastIndexOf(`/node_modules/${name}/`) + `/node_modules/${name}/`.length), file)
}

interface ClientDefault {
  client: string
  model: string
  capability: ApiCapability
  /** Where the default is written in the installed package, and how to read it there. */
  source?: { package: string; file: string; pattern: RegExp }
}

const defaults: ClientDefault[] = [
  {
    client: "LlamaIndex's JinaAIEmbedding",
    model: 'jina-embeddings-v3',
    capability: 'embeddings',
    source: {
      package: '@llamaindex/jinaai',
      file: 'dist/index.js',
      pattern: /this\.model = init\?\.model \?\? "([^"]+)"/,
    },
  },
  {
    client: "LangChain's JinaEmbeddings",
    model: 'jina-clip-v2',
    capability: 'embeddings',
    source: { package: '@langchain/community', file: 'dist/embeddings/jina.js', pattern: /\bmodel = "([^"]+)"/ },
  },
  {
    client: "Chroma's JinaEmbeddingFunction",
    model: 'jina-clip-v2',
    capability: 'embeddings',
    source: { package: '@chroma-core/jina', file: 'dist/jina.mjs', pattern: /modelName = "([^"]+)"/ },
  },
  // The `llamaindex` package (its JinaAIReranker) is not a devDependency: its default, from its source.
  { client: "LlamaIndex's JinaAIReranker", model: 'jina-reranker-v1-base-en', capability: 'rerank' },
]

/** The AI SDK provider has no default: these are the model ids its types offer, and what this server does. */
const providerIds = {
  served: ['jina-embeddings-v3', 'jina-embeddings-v2-base-en', 'jina-clip-v2'],
  // Older models of other widths, not in the catalogue: refused with 422 naming what is served.
  notInCatalogue: ['jina-embeddings-v2-base-code', 'jina-clip-v1'],
}

const registry = () => buildRegistry({ INFERENCE_ENGINE: 'builtin', MODELS_DIR: 'models', UPSTREAM_TIMEOUT_MS: 1000 })

describe("the client libraries' default model names", () => {
  it.each(defaults.filter((entry) => entry.source))(
    "reads $client's default in its installed source ($model)",
    ({ model, source }) => {
      const text = readFileSync(packageFile(source!.package, source!.file), 'utf8')
      expect(text.match(source!.pattern)?.[1]).toBe(model)
    },
  )

  it.each(defaults)('serves $client’s default $model for $capability', async ({ model, capability }) => {
    const served = (await registry()).find(model)
    expect(served, model).toBeDefined()
    expect(served!.api.aliases).toContain(model)
    expect(capability === 'rerank' ? served!.reranker : served!.embeddings).toBeDefined()
    expect(served!.api.capabilities).toContain(capability)
  })

  it("serves the AI SDK provider's catalogue ids and lists exactly those its types offer", async () => {
    const types = readFileSync(packageFile('jina-ai-provider', 'dist/index.d.ts'), 'utf8')
    const offered = [...types.match(/type JinaEmbeddingModelId = ([^;]+);/)![1].matchAll(/'([^']+)'/g)].map(
      ([, id]) => id,
    )
    expect(offered.sort()).toEqual([...providerIds.served, ...providerIds.notInCatalogue].sort())
    const built = await registry()
    for (const id of providerIds.served) expect(built.find(id)?.embeddings, id).toBeDefined()
    for (const id of providerIds.notInCatalogue) expect(built.knows(id), id).toBe(false)
  })
})
