import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  defaultParseSearch,
} from '@tanstack/react-router'
import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { dashboardSearchSchema, localeSearchSchema, signInSearchSchema } from '~/lib/guard-search'

/** A query as the router parses it and the schema then sees it. */
const parse = <S extends v.GenericSchema>(schema: S, query: string) => v.parse(schema, defaultParseSearch(query))

describe('the locale route search (sui, s)', () => {
  it('reads the values as the router parses them', () => {
    expect(parse(localeSearchSchema, '?sui=1&ref=mail')).toEqual({ sui: 1, ref: 'mail' })
    expect(parse(localeSearchSchema, '?s=partner-42&x=1')).toEqual({ s: 'partner-42', x: 1 })
  })

  it('leaves out what the query does not have, and counts a bare sui as present', () => {
    expect(parse(localeSearchSchema, '')).toEqual({})
    expect(parse(localeSearchSchema, '?sui').sui).toBe('')
  })

  it('falls back to an empty value for a repeated or JSON-shaped parameter', () => {
    expect(parse(localeSearchSchema, '?sui=a&sui=b')).toEqual({ sui: '' })
    expect(parse(localeSearchSchema, '?s=%7B%22a%22%3A1%7D&keep=me')).toEqual({ s: '', keep: 'me' })
  })

  it('passes other parameters through, including look-alikes such as sui[]', () => {
    expect(parse(localeSearchSchema, '?sui[]=x&s[]=y')).toEqual({ 'sui[]': 'x', 's[]': 'y' })
  })
})

describe('the dashboard search (login)', () => {
  it('reads login=true as the farewell redirect writes it', () => {
    expect(parse(dashboardSearchSchema, '?login=true')).toEqual({ login: true })
  })

  it('drops any other login value and keeps the rest', () => {
    expect(parse(dashboardSearchSchema, '?login=maybe&tab=1')).toEqual({ login: undefined, tab: 1 })
    expect(parse(dashboardSearchSchema, '?login=1').login).toBeUndefined()
    expect(parse(dashboardSearchSchema, '?login=true&login=false').login).toBeUndefined()
  })

  it("keeps an invitation link's token, and drops one that is not a token", () => {
    const token = 'aB3_-x'.repeat(7)
    expect(parse(dashboardSearchSchema, `?invitation=${token}`).invitation).toBe(token)
    expect(parse(signInSearchSchema, `?tab=members&invitation=${token}`)).toEqual({ tab: 'members', invitation: token })
    expect(parse(dashboardSearchSchema, '?invitation=%3Cscript%3E').invitation).toBeUndefined()
    expect(parse(dashboardSearchSchema, `?invitation=${'a'.repeat(201)}`).invitation).toBeUndefined()
  })
})

describe('routes validating with these schemas', () => {
  it('match unexpected values without a search error, which would show the error page', () => {
    const root = createRootRoute()
    const locale = createRoute({ getParentRoute: () => root, path: '{-$locale}', validateSearch: localeSearchSchema })
    const dashboard = createRoute({
      getParentRoute: () => locale,
      path: 'api-dashboard',
      validateSearch: dashboardSearchSchema,
    })
    const router = createRouter({
      routeTree: root.addChildren([locale.addChildren([dashboard])]),
      history: createMemoryHistory({ initialEntries: ['/de/api-dashboard?login=maybe&sui=a&sui=b&s=%5B1%5D&x=1'] }),
    })
    const matches = router.matchRoutes(router.latestLocation)
    expect(matches.map((m) => [m.routeId, m.searchError])).toEqual([
      ['__root__', undefined],
      ['/{-$locale}', undefined],
      ['/{-$locale}/api-dashboard', undefined],
    ])
    expect(matches.at(-1)!.search).toEqual({ login: undefined, sui: '', s: '', x: 1 })
  })
})
