import { describe, expect, it } from 'vitest'
import { exampleLines, parseExampleLines, parseExampleTable } from '~/features/dashboard/classifiers/examples'

describe('training examples typed or loaded in the dashboard', () => {
  it('reads "label: text" lines, keeping colons inside the text', () => {
    expect(parseExampleLines('billing: charged twice\n\nbug: app crashes at 10:30\r\n')).toEqual({
      ok: true,
      examples: [
        { label: 'billing', text: 'charged twice' },
        { label: 'bug', text: 'app crashes at 10:30' },
      ],
      labels: ['billing', 'bug'],
    })
  })

  it('names the line that lacks a label or a text', () => {
    expect(parseExampleLines('billing: ok\njust a text\n')).toEqual({
      ok: false,
      problem: { kind: 'no-label', line: 2 },
    })
    expect(parseExampleLines('billing:   ')).toEqual({ ok: false, problem: { kind: 'no-label', line: 1 } })
    expect(parseExampleLines(' \n')).toEqual({ ok: false, problem: { kind: 'empty' } })
  })

  it('holds examples to the published limits: 1,024 examples and 16 labels', () => {
    const many = Array.from({ length: 1025 }, (_, i) => `l${i % 3}: text ${i}`).join('\n')
    expect(parseExampleLines(many)).toEqual({ ok: false, problem: { kind: 'too-many', max: 1024 } })
    const labels = Array.from({ length: 17 }, (_, i) => `label${i}: text`).join('\n')
    expect(parseExampleLines(labels)).toEqual({ ok: false, problem: { kind: 'too-many-labels', max: 16 } })
  })

  it('reads a CSV with quoted cells and a TSV, by their header names in any order', () => {
    const csv = 'label,text\r\nbilling,"Charged twice, ""again"""\nbug,"Crash\non start"\n'
    const parsed = parseExampleTable(csv, ',')
    expect(parsed.ok && parsed.examples).toEqual([
      { label: 'billing', text: 'Charged twice, "again"' },
      { label: 'bug', text: 'Crash\non start' },
    ])
    expect(parsed.ok && exampleLines(parsed.examples)).toBe('billing: Charged twice, "again"\nbug: Crash on start')
    expect(parseExampleTable('text\tlabel\nhello\tgreeting', '\t')).toMatchObject({ ok: true, labels: ['greeting'] })
    expect(parseExampleTable('sentence,category\nx,y', ',')).toEqual({ ok: false, problem: { kind: 'csv-columns' } })
  })
})
