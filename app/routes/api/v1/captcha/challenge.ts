import { createFileRoute } from '@tanstack/react-router'
import { captchaChallengeAnswer } from '~/contracts/keys'
import { captchaChallenge } from '~/server/api/keys'
import { endpoint } from '~/server/http/endpoint'

/** A fresh ALTCHA challenge for the widget, or Turnstile's site key when Turnstile is configured. */
export const Route = createFileRoute('/api/v1/captcha/challenge')({
  server: {
    handlers: {
      GET: endpoint(
        {
          summary: 'A captcha challenge (ALTCHA) or the Turnstile site key',
          description:
            'Feed the answer to the captcha widget; the solved widget response goes in the `captcha` form field of the calls that need it. Each challenge can be redeemed once.',
          auth: 'none',
          answer: captchaChallengeAnswer,
          errors: [],
        },
        () => captchaChallenge(),
      ),
    },
  },
})
