import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { accountKeySchema, accountKeysAnswer, createKeyInput } from '~/contracts/account'
import { createKeyFor, listKeysFor } from '~/server/api/account/keys'
import { endpoint } from '~/server/http/endpoint'

export const Route = createFileRoute('/api/v1/account/keys/')({
  server: {
    handlers: {
      GET: endpoint(
        { summary: "The account's keys", auth: 'session', answer: accountKeysAnswer, errors: [401, 429] },
        ({ caller }) => listKeysFor(caller),
      ),
      POST: endpoint(
        {
          summary: 'Create a key in the account',
          description:
            "The account's first key comes with the free pack (the trial limits apply); later keys start empty. Needs a captcha for `new_key`.",
          auth: 'session',
          json: createKeyInput,
          answer: v.object({ api_key: v.string(), key: accountKeySchema }),
          errors: [400, 401, 422, 429],
        },
        ({ caller, json }) => createKeyFor(caller, json),
      ),
    },
  },
})
