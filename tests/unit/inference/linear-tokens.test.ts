import { encode as cl100k } from 'gpt-tokenizer/encoding/cl100k_base'
import { encode as o200k } from 'gpt-tokenizer/encoding/o200k_base'
import { encode as p50k } from 'gpt-tokenizer/encoding/p50k_base'
import { encode as r50k } from 'gpt-tokenizer/encoding/r50k_base'
import { describe, expect, it } from 'vitest'
import type { TokenizerName } from '~/contracts/search'
import cl100kRanks from 'gpt-tokenizer/bpeRanks/cl100k_base'
import { CL100K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants'
import { BytePairEncoder, binaryStringSteps, utf8Steps } from '~/server/providers/inference/bpe'
import { loadTokenizer } from '~/server/providers/inference/segment-tokenizers'
import { runToEnd } from '~/server/paced'
import { countTokens } from '~/server/providers/inference/tokens'
import { threadCpuMs } from '../../support/thread-cpu'

const asPlainText = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() }
/** The package's own (quadratic) encoders: the reference the linear one must equal token for token. */
const packageEncoders: [TokenizerName, (text: string) => number[]][] = [
  ['cl100k_base', (text) => cl100k(text, asPlainText)],
  ['o200k_base', (text) => o200k(text, asPlainText)],
  ['p50k_base', (text) => p50k(text, asPlainText)],
  ['r50k_base', (text) => r50k(text, asPlainText)],
]

const ordinaryTexts = [
  "The quick brown fox jumps over the lazy dog. It's 3:45pm; we'll see—maybe not!",
  'Grüße aus München! Die Straße ist nass, öffentlich und ärgerlich.',
  '¿Dónde está la biblioteca? Está aquí, señor. Ça va très bien, merci.',
  'Привет, мир! Как дела? Всё хорошо, спасибо.',
  '今日はいい天気ですね。東京タワーに行きましょう！',
  '我们今天去北京大学参观，然后吃烤鸭。',
  '안녕하세요, 만나서 반갑습니다. 오늘 날씨가 좋네요.',
  'مرحبا بالعالم، كيف حالك اليوم؟',
  'नमस्ते दुनिया, आप कैसे हैं?',
  'Emoji 🎉👍🏽👩‍👩‍👧‍👦 and flags 🇫🇷🇯🇵, math ∑∫√∞, and a lone \ud800 surrogate.',
  'function f(x) {\n  return x * 2 + 1; // double\n}\n\n\tconst y = f(21);   \r\n',
  '<|endoftext|> is plain text here, as is <|fim_prefix|>.',
  'https://example.com/path?query=1&b=%20#frag user@mail.example 1234567890 3.14159',
  '   leading and trailing spaces   \n\n\n   ',
]

/** A deterministic mix of letters, digits, marks, spaces and multi-byte characters. */
function mixedText(length: number, seed: number): string {
  const alphabet = [
    'a',
    'b',
    'e',
    'n',
    'x',
    'Q',
    'é',
    'ß',
    'ж',
    '中',
    '文',
    '😀',
    '1',
    '7',
    '.',
    '!',
    '-',
    "'",
    ' ',
    '  ',
    '\n',
    '\t',
  ]
  let state = seed
  let text = ''
  while (text.length < length) {
    state = (state * 1103515245 + 12345) % 2147483648
    text += alphabet[state % alphabet.length]
  }
  return text
}

/** A run without spaces: letters drawn at random, the hostile input of issue 26. */
function letterRun(length: number, seed = 7): string {
  let state = seed
  const letters: string[] = []
  for (let i = 0; i < length; i++) {
    state = (state * 1103515245 + 12345) % 2147483648
    letters.push(String.fromCharCode(97 + (state % 26)))
  }
  return letters.join('')
}

// Loading a tokenizer's tables takes seconds on a loaded machine, and the package's encoder is slow on runs.
describe('linear-time token counting', { timeout: 60_000 }, () => {
  it.each(packageEncoders)(
    'gives %s the same tokens as gpt-tokenizer on ordinary text in many languages',
    async (name, reference) => {
      const tokenizer = await loadTokenizer(name)
      for (const text of ordinaryTexts) expect(await tokenizer.encode(text), text).toEqual(reference(text))
      for (let seed = 1; seed <= 20; seed++) {
        const text = mixedText(400, seed)
        expect(await tokenizer.encode(text), text).toEqual(reference(text))
      }
    },
  )

  it.each(packageEncoders)('gives %s the same tokens on runs without spaces', async (name, reference) => {
    const tokenizer = await loadTokenizer(name)
    for (const text of [
      letterRun(3000),
      'a'.repeat(2001),
      '!'.repeat(1500),
      '中文'.repeat(700),
      '😀'.repeat(500),
      '7'.repeat(999),
    ])
      expect(await tokenizer.encode(text)).toEqual(reference(text))
  })

  it('meters what gpt-tokenizer counts', async () => {
    for (const text of ordinaryTexts) expect(await countTokens(text)).toBe(cl100k(text, asPlainText).length)
  })

  it('grows about linearly with the length of a run without spaces', async () => {
    const tokenizer = await loadTokenizer('cl100k_base')
    const fastest = (text: string) => threadCpuMs(() => tokenizer.encode(text))
    await fastest(letterRun(20_000))
    const short = await fastest(letterRun(25_000))
    const long = await fastest(letterRun(400_000))
    // 16 times the length: linear is 16 times the time, the package's quadratic merge 256 times (here
    // 25,000 letters alone take it over a second). The bound leaves room for
    // a garbage collection in the long run.
    expect(long / short).toBeLessThan(64)
  })

  it('gives the event loop turns while it counts a long run', async () => {
    let turns = 0
    const timer = setInterval(() => turns++, 1)
    try {
      expect(await countTokens(letterRun(300_000))).toBeGreaterThan(100_000)
    } finally {
      clearInterval(timer)
    }
    expect(turns).toBeGreaterThan(3)
  })

  it('encodes a long piece to UTF-8 in slices with the same bytes as at once, pairs split nowhere', () => {
    // Slices of 7 units over text whose surrogate pairs and multi-byte characters fall on every boundary.
    const texts = [
      mixedText(5000, 3),
      '😀'.repeat(300),
      `a${'😀'.repeat(300)}`,
      'é中😀'.repeat(200),
      'x\ud800y\udc00'.repeat(50),
    ]
    for (const text of texts) {
      const bytes = new TextEncoder().encode(text)
      expect(runToEnd(utf8Steps(text, 7))).toEqual(bytes)
      expect(runToEnd(binaryStringSteps(bytes, 7))).toBe(String.fromCharCode(...bytes))
    }
  })

  it('never holds the thread long for one step of a run of millions of letters', async () => {
    // The passes over a whole piece (its UTF-8 bytes, byte string and part lists) were one step of
    // 75-125 ms for 2,000,000 letters; now each step is a slice of them. Measured in the process's processor
    // time, so another process taking the core does not count. The collector's threads count too, and a
    // collection can land in any step: the same steps run twice and each is taken at its faster run, so only
    // work that every run does in that step remains.
    const encoder = await BytePairEncoder.create(cl100kRanks, CL100K_TOKEN_SPLIT_REGEX)
    const text = letterRun(2_000_000)
    const stepTimes = () => {
      const ids: number[] = []
      const steps = encoder.encodeSteps(text, ids)
      const times: number[] = []
      for (let done = false; !done;) {
        const before = process.cpuUsage()
        done = Boolean(steps.next().done)
        const used = process.cpuUsage(before)
        times.push((used.user + used.system) / 1000)
      }
      expect(ids.length).toBeGreaterThan(1_000_000)
      return times
    }
    const [first, second] = [stepTimes(), stepTimes()]
    expect(second).toHaveLength(first.length)
    const slowest = Math.max(...first.map((time, step) => Math.min(time, second[step]!)))
    expect(slowest).toBeLessThan(40)
  })
})
