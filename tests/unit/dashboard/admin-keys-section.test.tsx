import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { AdminKey } from '~/contracts/admin-keys'
import type { Organisation } from '~/contracts/organisations'
import { AdminKeysSection } from '~/features/dashboard/members/admin-keys-section'
import { orgKeys } from '~/features/dashboard/members/queries'
import { may } from '~/features/dashboard/members/role-rights'
import { renderInLocale, textsOf } from '../support/render'

const organisation = { id: 'org-1', name: 'Team', personal: false, role: 'owner' } as Organisation
const key = (id: string, name: string, revoked: boolean): AdminKey => ({
  object: 'organization.admin_api_key',
  id,
  organisation_id: organisation.id,
  name,
  redacted_value: `sk-admin-…${id.slice(-4)}`,
  created_by: 'owner',
  created_at: 1_764_800_000,
  last_used_at: null,
  revoked_at: revoked ? 1_764_900_000 : null,
})

async function rendered(keys: AdminKey[]) {
  const client = new QueryClient()
  client.setQueryData(orgKeys.adminKeys(organisation.id), { object: 'list', data: keys })
  return renderInLocale(
    <QueryClientProvider client={client}>
      <AdminKeysSection organisation={organisation} />
    </QueryClientProvider>,
  )
}

describe('the admin keys of the Members tab', () => {
  it('lists each key redacted, offers to revoke the live ones only, and a form for a new one', async () => {
    const html = await rendered([key('k-abcd', 'deploy', false), key('k-wxyz', 'old script', true)])
    expect(textsOf(html, 'h3')).toEqual(['Admin keys'])
    expect(html).toContain('sk-admin-…abcd')
    expect(html).toContain('sk-admin-…wxyz')
    expect(html.match(/data-testid="revoke-admin-key"/g)).toHaveLength(1)
    expect(html).toContain('aria-label="Revoke deploy"')
    expect(html).toContain('Revoked')
    expect(html).toContain('data-testid="create-admin-key"')
  })

  it('says there are none yet, and is for owners only', async () => {
    expect(await rendered([])).toContain('No admin keys yet.')
    expect(may('owner', 'manageAdminKeys')).toBe(true)
    for (const role of ['admin', 'developer', 'billing', 'viewer'] as const)
      expect(may(role, 'manageAdminKeys')).toBe(false)
  })
})
