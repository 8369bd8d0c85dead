import type { Page } from 'playwright-core'
import { PageNotRead } from '../../../domain/refusals'
import { joinPngStrips } from './png-strips'

/** Tallest whole-page screenshot taken, in CSS pixels: a page longer than this is cut there. */
export const MAX_PAGESHOT_HEIGHT = 16_384

/**
 * Most pixels one screenshot holds (a pageshot is cut at the height that keeps it within): 1024 × 16,384. A
 * PNG stores about 3 bytes a pixel where nothing compresses, so this bounds the worst shot near 50 MB before
 * it is taken (a 3840 × 16,384 pageshot of noise was 188 MB).
 */
export const MAX_SHOT_PIXELS = 1024 * MAX_PAGESHOT_HEIGHT

/**
 * Most pixels Chromium encodes at once: a capture crosses its pipe to the server as one base64 message, which
 * the event loop parses and decodes whole (a 67 MB one held it half a second), so a shot comes in strips of
 * at most this many pixels (about 8 MB of message at worst), joined off the event loop (`./png-strips.ts`).
 */
export const STRIP_PIXELS = 2 * 1024 * 1024

export interface ShotArea {
  /** Where the area starts in the page (the first screen where the page scrolled to), in CSS pixels. */
  left: number
  top: number
  width: number
  height: number
  /** Whether the area reaches below the first screen (a pageshot): Chromium then renders beyond the viewport. */
  beyondViewport: boolean
}

/** The area of a pageshot: the viewport's width, the page's height, cut at MAX_PAGESHOT_HEIGHT and MAX_SHOT_PIXELS. */
export async function pageshotArea(page: Page, width: number): Promise<ShotArea> {
  const height = await page.evaluate(() =>
    Math.max(document.documentElement.scrollHeight, document.body?.scrollHeight ?? 0),
  )
  return {
    left: 0,
    top: 0,
    width,
    height: Math.max(1, Math.min(height, MAX_PAGESHOT_HEIGHT, Math.floor(MAX_SHOT_PIXELS / width))),
    beyondViewport: true,
  }
}

/** The area of a screenshot: the screen the page shows, where it scrolled to (a viewport is at most 3840 × 3840). */
export async function screenArea(page: Page, viewport: { width: number; height: number }): Promise<ShotArea> {
  const { left, top } = await page.evaluate(() => ({ left: scrollX, top: scrollY }))
  return { left, top, ...viewport, beyondViewport: false }
}

/**
 * A PNG of `area` (from the page's top left), taken in strips of at most STRIP_PIXELS and refused with 422 as
 * soon as it passes `maxBytes`: the limit holds before the whole image is ever in memory.
 */
export async function screenshotOf(page: Page, area: ShotArea, maxBytes: number): Promise<Buffer> {
  const session = await page.context().newCDPSession(page)
  try {
    const stripHeight = Math.max(1, Math.floor(STRIP_PIXELS / area.width))
    const strips: Buffer[] = []
    let bytes = 0
    for (let y = 0; y < area.height; y += stripHeight) {
      const { data } = (await session.send('Page.captureScreenshot', {
        format: 'png',
        clip: {
          x: area.left,
          y: area.top + y,
          width: area.width,
          height: Math.min(stripHeight, area.height - y),
          scale: 1,
        },
        captureBeyondViewport: area.beyondViewport,
      })) as { data: string }
      const strip = Buffer.from(data, 'base64')
      bytes += strip.length
      if (bytes > maxBytes) throw tooLarge(maxBytes)
      strips.push(strip)
    }
    const png = await joinPngStrips(strips)
    if (png.length > maxBytes) throw tooLarge(maxBytes)
    return png
  } finally {
    await session.detach().catch(() => undefined)
  }
}

const tooLarge = (maxBytes: number) =>
  new PageNotRead(
    'too-large',
    `The screenshot would be larger than ${Math.round(maxBytes / 1024 / 1024)} MB, the reader's limit: ask for a smaller viewport`,
  )
