import { usagePage, usageProducts, usageQuery, type UsageProduct } from '~/contracts/admin-usage'
import { usageFor } from '../api/admin/usage'
import { endpoint } from './endpoint'

/** The GET of `/v1/organization/usage/<product>`: one per product the ledger charges, alike but for the product. */
export const usageEndpoint = (product: UsageProduct) =>
  endpoint(
    {
      summary: `Usage of ${product.replace('_', ' ')}`,
      description: `Tokens charged (\`input_tokens\`, net of what was given back, as the ledger holds them) and requests answered for \`${usageProducts[product]}\`, in buckets of \`bucket_width\` from \`start_time\` to \`end_time\` (unix seconds), grouped by any of \`project_id\`, \`api_key_id\` and \`model\`. Pages of buckets continue at \`next_page\` (pass it as \`page\`). OpenAI's usage shape; for an Administration API key.`,
      group: 'organization',
      auth: 'admin-key',
      query: usageQuery,
      answer: usagePage,
      errors: [401, 403, 422, 429],
    },
    ({ caller, query }) => usageFor(caller, product, query),
  )
