import { brand } from '#config'
import { deepSearchLimits, deepSearchModels, modelChatOptions } from '~/contracts/deepsearch'
import type { ServedModelRecord } from '~/contracts/served-models'
import { serverEnv } from '../../env'

/** Deep search's release, in seconds since 1970. */
const DEEPSEARCH_RELEASED = Date.UTC(2025, 1, 1) / 1000

/** `deepsearch-v1` as `GET /v1/models` lists it: served by this server's deep-search engine, always. */
export function chatModelRecords(): ServedModelRecord[] {
  // The upstream engine forwards OpenAI's sampling options to its chat model; the built-in one writes no text.
  const forwarded = serverEnv().DEEPSEARCH_ENGINE === 'upstream'
  return deepSearchModels.map((id) => ({
    id,
    object: 'model',
    created: DEEPSEARCH_RELEASED,
    owned_by: brand.name,
    name: 'DeepSearch',
    aliases: [],
    capabilities: ['chat'],
    inputs: ['text'],
    dimensions: null,
    multi_vector_dimensions: null,
    // Messages are limited in characters, not tokens: the same number either way is the ceiling.
    context_length: deepSearchLimits.maxCharacters,
    tasks: [],
    served: true,
    engine: `deepsearch:${serverEnv().DEEPSEARCH_ENGINE}`,
    options: {
      chat: {
        honoured: [
          'messages',
          'messages.role.tool',
          'stream',
          'stream_options.include_usage',
          'reasoning_effort',
          'budget_tokens',
          'max_attempts',
          'no_direct_answer',
          'boost_hostnames',
          'bad_hostnames',
          'only_hostnames',
          'max_tokens',
          'max_completion_tokens',
          'max_returned_urls',
          'response_format.text',
          ...(forwarded ? modelChatOptions : []),
        ],
        not_applied: forwarded ? [] : [...modelChatOptions],
        refused: ['messages.content.image_url', 'messages.content.file', 'response_format.json_object'],
      },
    },
  }))
}
