import { describe, expect, it } from 'vitest'
import { forEachTerm, normalizeText, termsOf } from '~/server/providers/inference/builtin/terms'

describe('the builtin engines’ terms', () => {
  it('splits on anything that is not a letter, digit or mark, after NFKC and lower-casing', () => {
    expect(termsOf("Hello, WORLD! l'été — ＡＢＣ１２３ naïve")).toEqual([
      'hello',
      'world',
      'l',
      'été',
      'abc123',
      'naïve',
    ])
    expect(termsOf('  ...  ')).toEqual([])
  })

  it('keeps combining marks inside their word', () => {
    expect(termsOf('cafe\u0301 हिन्दी')).toEqual(['café', 'हिन्दी'])
  })

  it('turns runs of Han, Kana and Hangul into overlapping character bigrams', () => {
    expect(termsOf('東京都')).toEqual(['東京', '京都'])
    expect(termsOf('カタカナ')).toEqual(['カタ', 'タカ', 'カナ'])
    expect(termsOf('한국어')).toEqual(['한국', '국어'])
    // Half-width Katakana is folded by NFKC first.
    expect(termsOf('ｶﾀｶﾅ')).toEqual(['カタ', 'タカ', 'カナ'])
  })

  it('keeps a lone CJK character and separates CJK from other scripts', () => {
    expect(termsOf('猫')).toEqual(['猫'])
    expect(termsOf('東京2020年')).toEqual(['東京', '2020', '年'])
    expect(termsOf('iPhone手机 is 好')).toEqual(['iphone', '手机', 'is', '好'])
  })

  it('counts characters outside the BMP whole', () => {
    // U+20BB7 (𠮷) is a Han character spelled with a surrogate pair.
    expect(termsOf('𠮷野家')).toEqual(['𠮷野', '野家'])
    expect(termsOf('𝐀𝐁𝐂 ok')).toEqual(['abc', 'ok'])
  })

  it('reports spans of the normalised text and how many terms it saw', () => {
    const text = normalizeText('Ab cd 東京')
    const spans: [number, number, boolean][] = []
    const count = forEachTerm(text, (start, end, cjk) => spans.push([start, end, cjk]))
    expect(spans).toEqual([
      [0, 2, false],
      [3, 5, false],
      [6, 8, true],
    ])
    expect(count).toBe(3)
  })
})
