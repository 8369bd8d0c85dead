import { createFileRoute } from '@tanstack/react-router'
import { captchaChallengeAnswer, captchaChallengeQuery } from '~/contracts/keys'
import { captchaChallenge } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** A fresh ALTCHA challenge for one action, or Turnstile's site key when Turnstile is configured. */
export const Route = createFileRoute('/api/v1/captcha/challenge')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A captcha challenge (ALTCHA) or the Turnstile site key',
          description:
            'Feed the answer to the captcha widget; the solved widget response goes in the `captcha` form field of the call named by `action` (`new_key`: trial and empty keys, `revoke_key`, `transfer_balance`, `contact_sales`), and only there. Each challenge can be redeemed once.',
          auth: 'none',
          query: captchaChallengeQuery,
          answer: captchaChallengeAnswer,
          errors: [422],
        },
        ({ query }) => captchaChallenge(query),
      ),
    },
  },
})
