import { createFileRoute } from '@tanstack/react-router'
import * as v from 'valibot'
import { userAnswerSchema, userInfoInput } from '~/contracts/account'
import { viewerFor } from '~/server/api/account/profile'
import { endSession, startSession } from '~/server/api/account/session'
import { endpoint } from '~/server/http/endpoint'
import { jsonResponse } from '~/server/http/errors'

export const Route = createFileRoute('/api/v1/account/session')({
  server: {
    handlers: {
      POST: endpoint(
        {
          summary: 'Sign in: exchange a fresh ID token for the session cookie',
          description:
            'The token must come from a sign-in in the last 5 minutes. Answers the stored user and sets `session` (HttpOnly, Secure, SameSite=Lax), which the dashboard calls then carry.',
          auth: 'id-token',
          json: userInfoInput,
          answer: userAnswerSchema,
          errors: [401, 422, 429],
        },
        async ({ caller, json }) => {
          const { user, cookie } = await startSession(caller, json)
          return jsonResponse(user, { headers: { 'set-cookie': cookie } })
        },
      ),
      GET: endpoint(
        {
          summary: "The session's user, or null when this browser has no live session",
          auth: 'session',
          answer: v.object({ user: v.nullable(userAnswerSchema) }),
          errors: [429],
        },
        async ({ caller }) => ({ user: await viewerFor(caller) }),
      ),
      DELETE: endpoint(
        {
          summary: 'Sign out: end this session',
          auth: 'session',
          answer: v.object({ detail: v.string() }),
          errors: [429],
        },
        async ({ caller }) =>
          jsonResponse({ detail: 'Signed out' }, { headers: { 'set-cookie': await endSession(caller) } }),
      ),
    },
  },
})
