import { isValidElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { Button } from '~/components/ui/button'
import { Slot } from '~/components/ui/slot'

describe('Button asChild', () => {
  it('renders the link itself, styled as the button, with its own classes and attributes kept', () => {
    const html = renderToStaticMarkup(
      <Button asChild size="lg" variant="outline">
        <a href="/api-dashboard" className="w-full" data-testid="cta">
          Get a key
        </a>
      </Button>,
    )
    expect(html).toMatch(/^<a [^>]*href="\/api-dashboard"[^>]*>Get a key<\/a>$/)
    expect(html).not.toContain('<button')
    const classes = /class="([^"]*)"/.exec(html)![1].split(' ')
    expect(classes).toEqual(expect.arrayContaining(['inline-flex', 'min-h-11', 'border', 'w-full']))
    expect(html).toContain('data-slot="button"')
    expect(html).toContain('data-testid="cta"')
  })

  it('runs both click handlers, the child’s first, and merges styles', () => {
    const order: string[] = []
    const element = Slot({
      onClick: () => order.push('slot'),
      style: { color: 'red', margin: 1 },
      children: <a href="/" onClick={() => order.push('child')} style={{ color: 'blue' }} />,
    }) as ReactElement<{ onClick: () => void; style: object }>
    expect(isValidElement(element)).toBe(true)
    element.props.onClick()
    expect(order).toEqual(['child', 'slot'])
    expect(element.props.style).toEqual({ color: 'blue', margin: 1 })
  })

  it('renders nothing without a single element child', () => {
    const warn = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(renderToStaticMarkup(<Slot>text</Slot>)).toBe('')
    warn.mockRestore()
  })
})
