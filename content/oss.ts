import type { OssProject } from './schemas'

const repo = (name: string) => `https://github.com/lodestar-ai/${name}`

export const ossProjects: OssProject[] = [
  {
    name: 'reader',
    description:
      'The web page reader behind our Reader API: fetches a page, extracts its article and converts it to Markdown.',
    repo: repo('reader'),
    status: 'graduated',
  },
  {
    name: 'deepsearch-node',
    description: 'A reference deep-search agent that searches, reads and reasons until it can answer.',
    repo: repo('deepsearch-node'),
    status: 'incubating',
  },
  {
    name: 'late-chunking',
    description: 'Contextual chunk embeddings with any long-context embedding model.',
    repo: repo('late-chunking'),
    status: 'sandbox',
  },
  {
    name: 'vectorwell',
    description: 'A document store with vector search, donated to the Linux Foundation in 2024.',
    repo: repo('vectorwell'),
    status: 'linux_foundation',
  },
  {
    name: 'tokenbench',
    description: 'Benchmarks for tokenizers and text segmenters across 30 languages.',
    repo: repo('tokenbench'),
    status: 'sandbox',
  },
  {
    name: 'serve-kit',
    description: 'Our first model-serving framework, superseded by the hosted API.',
    repo: repo('serve-kit'),
    status: 'archived',
  },
]
