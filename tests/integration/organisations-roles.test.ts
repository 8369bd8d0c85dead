import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import type { OrganisationRole } from '~/contracts/organisations'
import { memberships, projects } from '~/server/db/schema'
import { apiDatabase, call, solvedCaptcha, type CallInit } from '../support/api'
import { organisationKey, organisationWithBalance, roles, signedInAccount } from '../support/organisations'

/**
 * Every session route that touches an organisation's keys, usage, billing or members, asked by a member of
 * each role: what `can(role, action)` allows is answered (whatever its outcome, never 403), everything else is
 * refused with 403 and a `{detail}` naming the role; someone outside the organisation reads 404.
 */
const database = apiDatabase({ maxConnections: 10 })

type Fixture = Awaited<ReturnType<typeof fixture>>

/** An organisation with a member of every role, a target member (a viewer), a project, a key and an invitation. */
async function fixture() {
  const db = database.db
  const owner = await signedInAccount(db, 'owner')
  const organisation = await organisationWithBalance(db, owner.uid, 1000)
  const members = { owner } as Record<OrganisationRole, Awaited<ReturnType<typeof signedInAccount>>>
  for (const role of roles.slice(1)) {
    members[role] = await signedInAccount(db, role)
    await db.insert(memberships).values({ organisationId: organisation.id, uid: members[role].uid, role })
  }
  const target = await signedInAccount(db, 'target')
  await db.insert(memberships).values({ organisationId: organisation.id, uid: target.uid, role: 'viewer' })
  const [project] = await db.insert(projects).values({ organisationId: organisation.id, name: 'P' }).returning()
  const key = await organisationKey(db, organisation)
  const invited = await call('POST', `/api/v1/account/organisations/${organisation.id}/invitations`, {
    ...owner.init,
    json: { email: `invitee-${randomUUID()}@example.com`, role: 'viewer' },
  })
  expect(invited.status).toBe(200)
  return { organisation, members, target, project, key, invitationId: invited.body.id as string }
}

interface Case {
  allowed: OrganisationRole[]
  /** What an allowed role is answered, when it is not 200 (a probe of something that is not there). */
  answered?: number
  request: (f: Fixture) => Promise<{ method: string; path: string; init?: CallInit }>
}

const all = roles
const managers: OrganisationRole[] = ['owner', 'admin']
const developers: OrganisationRole[] = ['owner', 'admin', 'developer']
const billers: OrganisationRole[] = ['owner', 'admin', 'billing']
const org = (f: Fixture, rest = '') => `/api/v1/account/organisations/${f.organisation.id}${rest}`
const key = (f: Fixture, rest = '') => `/api/v1/account/keys/${f.key.id}${rest}`
const recharge = {
  price_id: 'price_tokens_1b',
  success_url: 'http://localhost:3000/api-dashboard/members',
  cancel_url: 'http://localhost:3000/api-dashboard/members',
  metadata: { auto_recharge: true, threshold: 100, currency: 'USD' },
}

const cases: Record<string, Case> = {
  'see the organisation': { allowed: all, request: async (f) => ({ method: 'GET', path: org(f) }) },
  rename: {
    allowed: managers,
    request: async (f) => ({ method: 'PATCH', path: org(f), init: { json: { name: 'N' } } }),
  },
  delete: { allowed: ['owner'], request: async (f) => ({ method: 'DELETE', path: org(f) }) },
  'list members': { allowed: managers, request: async (f) => ({ method: 'GET', path: org(f, '/members') }) },
  "change a member's role": {
    allowed: managers,
    request: async (f) => ({
      method: 'PATCH',
      path: org(f, `/members/${f.target.uid}`),
      init: { json: { role: 'developer' } },
    }),
  },
  'make a member owner': {
    allowed: ['owner'],
    request: async (f) => ({
      method: 'PATCH',
      path: org(f, `/members/${f.target.uid}`),
      init: { json: { role: 'owner' } },
    }),
  },
  'remove a member': {
    allowed: managers,
    request: async (f) => ({ method: 'DELETE', path: org(f, `/members/${f.target.uid}`) }),
  },
  'list invitations': { allowed: managers, request: async (f) => ({ method: 'GET', path: org(f, '/invitations') }) },
  invite: {
    allowed: managers,
    request: async (f) => ({
      method: 'POST',
      path: org(f, '/invitations'),
      init: { json: { email: 'new@example.com', role: 'developer' } },
    }),
  },
  'invite an owner': {
    allowed: ['owner'],
    request: async (f) => ({
      method: 'POST',
      path: org(f, '/invitations'),
      init: { json: { email: 'boss@example.com', role: 'owner' } },
    }),
  },
  'revoke an invitation': {
    allowed: managers,
    request: async (f) => ({ method: 'DELETE', path: org(f, `/invitations/${f.invitationId}`) }),
  },
  'list projects': { allowed: all, request: async (f) => ({ method: 'GET', path: org(f, '/projects') }) },
  'create a project': {
    allowed: developers,
    request: async (f) => ({ method: 'POST', path: org(f, '/projects'), init: { json: { name: 'Q' } } }),
  },
  'rename a project': {
    allowed: developers,
    request: async (f) => ({
      method: 'PATCH',
      path: org(f, `/projects/${f.project.id}`),
      init: { json: { name: 'R' } },
    }),
  },
  'archive a project': {
    allowed: developers,
    request: async (f) => ({ method: 'DELETE', path: org(f, `/projects/${f.project.id}`) }),
  },
  'list keys': { allowed: developers, request: async (f) => ({ method: 'GET', path: org(f, '/keys') }) },
  'create a key': {
    allowed: developers,
    request: async (f) => ({
      method: 'POST',
      path: org(f, '/keys'),
      init: { json: { name: 'k', project_id: f.project.id, captcha: await solvedCaptcha('new_key') } },
    }),
  },
  'rename a key': {
    allowed: developers,
    request: async (f) => ({ method: 'PATCH', path: key(f), init: { json: { name: 'renamed' } } }),
  },
  'revoke a key': { allowed: developers, request: async (f) => ({ method: 'DELETE', path: key(f) }) },
  'show a key': { allowed: developers, request: async (f) => ({ method: 'POST', path: key(f, '/reveal') }) },
  "read a key's controls": {
    allowed: developers,
    request: async (f) => ({ method: 'GET', path: key(f, '/controls') }),
  },
  "set a key's controls": {
    allowed: developers,
    request: async (f) => ({
      method: 'PUT',
      path: key(f, '/controls'),
      init: {
        json: {
          daily_cap: 1000,
          monthly_cap: null,
          allowed_products: null,
          allowed_models: null,
          expires_at: null,
          allowed_networks: null,
        },
      },
    }),
  },
  "move a key's project": {
    allowed: developers,
    request: async (f) => ({ method: 'PUT', path: key(f, '/project'), init: { json: { project_id: f.project.id } } }),
  },
  'read usage': { allowed: all, request: async (f) => ({ method: 'GET', path: org(f, '/usage_summary') }) },
  'buy tokens': {
    allowed: billers,
    request: async (f) => ({
      method: 'POST',
      path: org(f, '/checkout_session'),
      init: { json: { price_id: 'price_tokens_1b' } },
    }),
  },
  'list purchases': { allowed: billers, request: async (f) => ({ method: 'GET', path: org(f, '/purchases') }) },
  'download an invoice': {
    allowed: billers,
    answered: 404,
    request: async (f) => ({ method: 'GET', path: org(f, `/invoices/${randomUUID()}`) }),
  },
  'read billing details': {
    allowed: billers,
    request: async (f) => ({ method: 'GET', path: org(f, '/billing_details') }),
  },
  'set billing details': {
    allowed: billers,
    request: async (f) => ({
      method: 'PUT',
      path: org(f, '/billing_details'),
      init: { json: { name: 'Example Ltd', address: '1 Example Street\nLondon' } },
    }),
  },
  'read auto-recharge': { allowed: billers, request: async (f) => ({ method: 'GET', path: org(f, '/auto_recharge') }) },
  'turn auto-recharge on': {
    allowed: billers,
    request: async (f) => ({ method: 'POST', path: org(f, '/auto_recharge'), init: { json: recharge } }),
  },
  'turn auto-recharge off': {
    allowed: billers,
    request: async (f) => ({ method: 'DELETE', path: org(f, '/auto_recharge') }),
  },
}

describe('each role is refused what it may not do, and only that', () => {
  it.each(Object.keys(cases))(
    '%s',
    async (name) => {
      const { allowed, request, answered = 200 } = cases[name]
      for (const role of roles) {
        // A fresh organisation for each role: what one allowed role changed (a deletion) does not decide the next.
        const f = await fixture()
        const { method, path, init } = await request(f)
        const answer = await call(method, path, {
          ...init,
          headers: { ...init?.headers, ...f.members[role].init.headers },
        })
        const said = `${role}: ${method} ${path} answered ${answer.status} ${JSON.stringify(answer.body)}`
        if (allowed.includes(role)) {
          expect(answer.status, said).toBe(answered)
        } else {
          expect(answer.status, said).toBe(403)
          expect(answer.body, said).toEqual({ detail: `Your role in this organisation (${role}) does not allow this` })
        }
      }
      // Someone outside it is told nothing: the organisation (or its key) is not found.
      const f = await fixture()
      const stranger = await signedInAccount(database.db, 'stranger')
      const { method, path, init } = await request(f)
      const answer = await call(method, path, { ...init, headers: { ...init?.headers, ...stranger.init.headers } })
      expect(answer.status, `stranger: ${method} ${path}`).toBe(404)
    },
    120_000,
  )
})
