import { describe, expect, it } from 'vitest'
import { localeFromPathname, localizePath, resolveLocale, stripLocale } from '~/lib/locale'
import { apiKeyCookie, parentDomain } from '~/lib/api-key-cookie'

describe('locale paths', () => {
  it('reads supported locales from the first segment, mapping en to en-US', () => {
    expect(localeFromPathname('/de/models')).toBe('de')
    expect(localeFromPathname('/zh-cn/news')).toBe('zh-CN')
    expect(localeFromPathname('/en/models')).toBe('en-US')
    expect(localeFromPathname('/models')).toBeUndefined()
  })

  it('does not offer mn or unknown codes as interface locales', () => {
    expect(resolveLocale('mn')).toBeUndefined()
    expect(resolveLocale('xx')).toBeUndefined()
  })

  it('strips and adds prefixes without a prefix for the default locale', () => {
    expect(stripLocale('/de/models/reranker-v3')).toBe('/models/reranker-v3')
    expect(stripLocale('/de')).toBe('/')
    expect(localizePath('/de/models', 'en-US')).toBe('/models')
    expect(localizePath('/models', 'ja')).toBe('/ja/models')
    expect(localizePath('/', 'ko')).toBe('/ko')
  })

  it("gives an index route's path without the trailing slash, whatever the locale, so canonical links do not redirect", () => {
    for (const locale of ['en-US', 'de'] as const) {
      expect(localizePath(stripLocale('/models/'), locale)).toBe(localizePath('/models', locale))
      expect(localizePath(stripLocale('/de/news/'), locale)).toBe(localizePath('/news', locale))
    }
    expect(stripLocale('/')).toBe('/')
  })
})

describe('apiKey cookie', () => {
  it('is shared with the parent domain, path /, secure', () => {
    expect(parentDomain('www.lodestar.example')).toBe('.lodestar.example')
    expect(apiKeyCookie('lds_abc', 'www.lodestar.example')).toMatch(
      /^apiKey=lds_abc; path=\/; secure; samesite=lax; domain=\.lodestar\.example; max-age=\d+$/,
    )
  })

  it('has no domain on localhost or an IP address, and expires when the key is removed', () => {
    expect(parentDomain('localhost')).toBeUndefined()
    expect(parentDomain('127.0.0.1')).toBeUndefined()
    expect(apiKeyCookie(null, 'localhost')).toBe('apiKey=; path=/; secure; samesite=lax; max-age=0')
  })
})
