// @vitest-environment happy-dom
import { readFileSync } from 'node:fs'
import { act } from 'react'
import { createRoot } from 'react-dom/client'
import { afterEach, describe, expect, it } from 'vitest'
import { Dialog, DialogContent, DialogTitle } from '~/components/ui/dialog'
import { constants } from '../../../app.config'

// Under happy-dom import.meta.url is not a file URL: vitest runs from the repository root.
const styles = readFileSync('app/styles.css', 'utf8')
;(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true

afterEach(() => {
  document.body.innerHTML = ''
})

describe('Dialog', () => {
  it('animates its overlay and panel in and out over spec §9’s 300 ms, with keyframes that exist', async () => {
    const container = document.body.appendChild(document.createElement('div'))
    const root = createRoot(container)
    await act(async () =>
      root.render(
        <Dialog open>
          <DialogContent closeLabel="Close" aria-describedby={undefined}>
            <DialogTitle>Forget this key?</DialogTitle>
          </DialogContent>
        </Dialog>,
      ),
    )
    expect(constants.dialogTransitionMs).toBe(300)
    for (const slot of ['dialog-overlay', 'dialog-content']) {
      const element = document.querySelector<HTMLElement>(`[data-slot="${slot}"]`)!
      expect(element.style.animationDuration, slot).toBe('300ms')
      const keyframes = [...element.className.matchAll(/animate-\[([a-z-]+)_/g)].map((m) => m[1])
      expect(keyframes, slot).toEqual([`${slot}-out`, `${slot}-in`])
      for (const name of keyframes) expect(styles).toContain(`@keyframes ${name} {`)
    }
    await act(async () => root.unmount())
  })
})
