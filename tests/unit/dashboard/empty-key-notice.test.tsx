import { describe, expect, it } from 'vitest'
import { EmptyKeyNotice, markEmptyKey } from '~/features/dashboard/key/empty-key-notice'
import { renderInLocale } from '../support/render'

describe('the notice of an empty trial key', () => {
  it('stays on the page for a key handed out empty, and only for that key', async () => {
    markEmptyKey('lds_empty')
    const shown = await renderInLocale(<EmptyKeyNotice apiKey="lds_empty" />, 'en-US', '/api-dashboard')
    expect(shown).toContain('Too many trial keys were requested from your network, so this key starts with 0 tokens.')
    expect(shown).toContain('Buy tokens')
    expect(await renderInLocale(<EmptyKeyNotice apiKey="lds_other" />, 'en-US', '/api-dashboard')).toBe('')
  })
})
