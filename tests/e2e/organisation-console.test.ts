import { describe, expect, inject, it } from 'vitest'
import { axeViolations } from './support/axe'
import { appRunning, contextWithStore, watchPage, useBrowser } from './support/browser'
import { invitationLinkTo as invitationLink } from './support/invitation-mail'
import { overflowAt } from './support/overflow'
import { signUpVerified } from './support/sign-in'

const baseUrl = inject('baseUrl')
const emulator = inject('authEmulator')
const dataDir = inject('dataDir')
const password = 'correct horse 42'

const browser = useBrowser()

const invitationLinkTo = (to: string) => invitationLink(dataDir, to)

/** Problems a visitor would notice, leaving out the emulator's own address (the identity service's stand-in). */
const realProblems = (problems: string[]) => problems.filter((problem) => !problem.includes(emulator.url))

describe('the organisation console (issue 42)', () => {
  it('an owner makes an organisation and invites a viewer by e-mail; the viewer signs up from the link, joins, and sees it without controls', async () => {
    const stamp = Date.now()
    const ownerEmail = `org-owner-${stamp}@example.com`
    const viewerEmail = `org-viewer-${stamp}@example.com`

    const ownerContext = await contextWithStore(browser, undefined, { viewport: { width: 1280, height: 900 } })
    const owner = await ownerContext.newPage()
    const ownerWatch = watchPage(owner, baseUrl)
    await signUpVerified(owner, { baseUrl, emulator }, ownerEmail, password)
    await owner.getByRole('link', { name: 'Members' }).click()
    await owner.getByTestId('organisation-choice').waitFor()
    // Personal first, the account's own.
    expect(await owner.getByTestId('organisation-choice').locator('option').allTextContents()).toEqual([
      'Personal (Owner)',
    ])

    // Nobody to invite into a personal organisation: the form is not offered there.
    await owner.getByTestId('personal-note').waitFor()
    expect(await owner.getByTestId('invite-form').count()).toBe(0)
    await owner.getByTestId('new-organisation').click()
    await owner.getByLabel('Name of the new organisation').fill('Acme Search')
    await owner.getByRole('button', { name: 'Create organisation' }).click()
    await owner.getByText('Acme Search created. It is shown below.').waitFor()
    await expect
      .poll(() => owner.getByTestId('organisation-choice').locator('option:checked').textContent())
      .toBe('Acme Search (Owner)')

    const invite = owner.getByTestId('invite-form')
    await invite.getByLabel('E-mail address').fill(viewerEmail)
    await invite.getByTestId('invite-role').selectOption('viewer')
    await invite.getByTestId('send-invitation').click()
    await owner.getByTestId('invitation-row').filter({ hasText: viewerEmail }).waitFor()

    // A project, and a key made into it: shown once, and not put into use in this browser unasked.
    await owner.getByLabel('New project').fill('Search backend')
    await owner.getByRole('button', { name: 'Create project' }).click()
    await owner.getByTestId('project-row').filter({ hasText: 'Search backend' }).waitFor()
    const keyForm = owner.getByTestId('create-organisation-key')
    await keyForm.getByLabel('New key').fill('backend')
    await keyForm.getByLabel('Project').selectOption({ label: 'Search backend' })
    await keyForm.getByRole('button', { name: 'Create key' }).click()
    await owner.getByTestId('new-key-once').waitFor({ timeout: 20_000 })
    await owner.getByTestId('organisation-key-row').filter({ hasText: 'backend' }).waitFor()
    expect(
      await owner
        .getByTestId('organisation-key-row')
        .getByTestId('key-project')
        .locator('option:checked')
        .textContent(),
    ).toBe('Search backend')
    expect(await owner.evaluate(() => JSON.stringify(window.localStorage))).not.toContain('lds_')
    await owner.getByTestId('new-key-done').click()

    // The viewer follows the mail's link signed out: to sign-in, the token kept through sign-up.
    await expect.poll(() => invitationLinkTo(viewerEmail), { timeout: 60_000 }).toContain('/api-dashboard/members')
    const link = (await invitationLinkTo(viewerEmail))!
    const viewerContext = await contextWithStore(browser, undefined, { viewport: { width: 320, height: 800 } })
    const viewer = await viewerContext.newPage()
    const viewerWatch = watchPage(viewer, baseUrl)
    await viewer.goto(link.replace(/^https?:\/\/[^/]+/, baseUrl))
    await viewer.waitForURL(/\/sign-in\?.*invitation=/)
    await appRunning(viewer)
    await signUpVerified(viewer, { baseUrl, emulator }, viewerEmail, password)

    const offer = viewer.getByTestId('invitation-offer')
    await offer.getByText('Join Acme Search as Viewer').waitFor()
    expect(await overflowAt(viewer, 320)).toBeUndefined()
    await offer.getByTestId('accept-invitation').click()
    const joined = viewer.getByText('You joined Acme Search.')
    await joined.or(offer.getByTestId('invitation-refused')).first().waitFor()
    expect(await offer.getByTestId('invitation-refused').allTextContents()).toEqual([])
    await joined.waitFor()
    await viewer.waitForURL(/\/api-dashboard\/members/)
    await expect
      .poll(() => viewer.getByTestId('organisation-choice').locator('option:checked').textContent())
      .toBe('Acme Search (Viewer)')
    expect(await viewer.getByTestId('organisation-role').textContent()).toContain('Usage only')
    // Read-only: the project listed, no control to change anything but leaving.
    await viewer.getByTestId('project-row').filter({ hasText: 'Search backend' }).waitFor()
    const members = viewer.getByTestId('members')
    for (const control of [
      'member-role',
      'remove-member',
      'invite-form',
      'create-project',
      'archive-project',
      'organisation-settings',
    ])
      expect(await members.getByTestId(control).count(), control).toBe(0)
    expect(await members.getByTestId('organisation-keys-section').count()).toBe(0)
    expect(await viewer.getByTestId('invitation-offer').count()).toBe(0)
    expect(await overflowAt(viewer, 320)).toBeUndefined()
    // The tab itself (the toast of the join fades out over it, its colours mid-animation).
    expect(await axeViolations(viewer, '[data-testid=members]')).toEqual([])
    expect(realProblems(viewerWatch.problems)).toEqual([])

    // The owner sees the viewer among the members, with the role to change.
    await owner.reload()
    await appRunning(owner)
    const row = owner.getByTestId('member-row').filter({ hasText: viewerEmail })
    await row.waitFor()
    expect(await row.getByTestId('member-role').inputValue()).toBe('viewer')
    expect(await owner.getByTestId('invitation-row').count()).toBe(0)
    // Every control labelled, and all of it fits a small phone, in German's longer words too.
    expect(await axeViolations(owner, '[data-testid=members]')).toEqual([])
    expect(await overflowAt(owner, 320)).toBeUndefined()
    await owner.goto(`${baseUrl}/de/api-dashboard/members`)
    await appRunning(owner)
    await owner.getByTestId('member-row').filter({ hasText: viewerEmail }).waitFor()
    expect(await owner.getByTestId('invite-form').getByRole('button').textContent()).toBe('Einladung senden')
    expect(await overflowAt(owner, 320)).toBeUndefined()
    expect(realProblems(ownerWatch.problems)).toEqual([])
    await viewerContext.close()
    await ownerContext.close()
  })
})
