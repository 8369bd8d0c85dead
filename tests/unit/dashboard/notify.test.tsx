import type { ReactNode } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

// The toaster is a third party: record what it is asked to show.
const shown = vi.hoisted(() => [] as { kind: string; content: ReactNode; options: Record<string, unknown> }[])
vi.mock('sonner', () => {
  const record = (kind: string) => (content: ReactNode, options: Record<string, unknown>) =>
    shown.push({ kind, content, options })
  return {
    toast: { success: record('success'), error: record('error'), warning: record('warning'), info: record('info') },
  }
})

const { notify } = await import('~/features/dashboard/notify')
const { resolveNotifyOptions } = await import('~/lib/notify-options')

describe('notifications', () => {
  let consoleError: ReturnType<typeof vi.spyOn>
  beforeEach(() => {
    shown.length = 0
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
  })
  afterEach(() => consoleError.mockRestore())

  it('default to spec §9: at the bottom for 5000 ms, badge on the top left', () => {
    expect(resolveNotifyOptions()).toEqual({ position: 'bottom', timeout: 5000, badgePosition: 'top-left' })
    expect(resolveNotifyOptions({ position: 'top-left' })?.badgePosition).toBe('top-right')
    expect(consoleError).not.toHaveBeenCalled()
  })

  it.each([
    [{ position: 'middle' }, 'Notify: wrong position'],
    [{ position: '' }, 'Notify: wrong position'],
    [{ timeout: -1 }, 'Notify: wrong timeout'],
    [{ timeout: 1.5 }, 'Notify: wrong timeout'],
    [{ timeout: Number.NaN }, 'Notify: wrong timeout'],
    [{ timeout: '5000' as unknown as number }, 'Notify: wrong timeout'],
    [{ badgePosition: 'center' }, 'Notify: wrong badgePosition'],
  ])('refuses %o with the console message "%s" and shows nothing', (options, message) => {
    expect(notify.error('Could not save', options)).toBe(false)
    expect(shown).toEqual([])
    expect(consoleError).toHaveBeenCalledWith(message, options)
  })

  it('shows a valid notification where and as long as asked; 0 keeps it until dismissed', () => {
    expect(notify.info('Saved', { position: 'top-right', timeout: 0 })).toBe(true)
    expect(shown[0]).toMatchObject({
      kind: 'info',
      content: 'Saved',
      options: { position: 'top-right', duration: Infinity },
    })
    notify.success('Copied')
    expect(shown[1].options).toMatchObject({ position: 'bottom-center', duration: 5000 })
  })

  it('counts a repeated message in a badge on the notification already shown, at badgePosition', () => {
    notify.error('403: Forbidden', { badgePosition: 'bottom-right' })
    notify.error('403: Forbidden', { badgePosition: 'bottom-right' })
    notify.error('403: Forbidden', { badgePosition: 'bottom-right' })
    expect(new Set(shown.map((s) => s.options.id)).size).toBe(1)
    const html = renderToStaticMarkup(<>{shown[2].content}</>)
    expect(html).toMatch(/^403: Forbidden<span[^>]*class="[^"]*-bottom-2 -right-2[^"]*"[^>]*>3<\/span>$/)
  })
})
