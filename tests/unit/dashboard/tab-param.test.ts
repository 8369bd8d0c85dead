import { isRedirect } from '@tanstack/react-router'
import { describe, expect, it } from 'vitest'
import { Route } from '~/routes/{-$locale}/api-dashboard/{-$tab}'

const params = Route.options.params!
const parse = (tab: string | undefined) => params.parse!({ tab } as never) as { tab?: string }

describe("the dashboard's tab, read once by its route", () => {
  it('reads a tab of ours as itself, and none (or the default named) as the default without a segment', () => {
    expect(parse('usage')).toEqual({ tab: 'usage' })
    expect(parse(undefined)).toEqual({})
    expect(parse('key')).toEqual({ tab: undefined })
  })

  it('sends a URL naming no tab of ours to the dashboard itself, keeping its language and query', () => {
    let thrown: unknown
    try {
      parse('nope')
    } catch (error) {
      thrown = error
    }
    expect(isRedirect(thrown)).toBe(true)
    const { options } = thrown as { options: { to: string; params: (p: object) => object; search: unknown } }
    expect(options.to).toBe('/{-$locale}/api-dashboard/{-$tab}')
    expect(options.params({ locale: 'ja', tab: 'nope' })).toEqual({ locale: 'ja', tab: undefined })
    expect(options.search).toBe(true)
  })

  it('writes the default tab as no segment', () => {
    expect(params.stringify!({ tab: 'key' })).toEqual({ tab: undefined })
    expect(params.stringify!({ tab: 'billing' })).toEqual({ tab: 'billing' })
  })
})
