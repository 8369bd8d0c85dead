import { createFileRoute } from '@tanstack/react-router'
import { handle, jsonResponse } from '~/server/http/errors'
import { captchaProvider } from '~/server/providers/captcha'

/** A fresh ALTCHA challenge for the widget, or Turnstile's site key when Turnstile is configured. */
export const Route = createFileRoute('/api/v1/captcha/challenge')({
  server: { handlers: { GET: handle(async () => jsonResponse(await captchaProvider().challenge())) } },
})
