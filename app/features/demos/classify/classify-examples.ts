import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export interface ClassifyValues {
  /** One text per line. */
  input: string
  /** One label per line. */
  labels: string
}

export const classifyExamples: readonly Example<ClassifyValues>[] = [
  {
    id: 'tickets',
    label: msg`Support tickets`,
    values: {
      input: ['My order arrived damaged', 'How do I change my password?', 'I was charged twice this month'].join('\n'),
      // Labels that describe their class: zero-shot compares texts with the label texts themselves.
      labels: ['order shipping and delivery', 'account password and login', 'billing and charges'].join('\n'),
    },
  },
  {
    id: 'sentiment',
    label: msg`Review sentiment`,
    values: {
      input: [
        'Absolutely love it, works perfectly and arrived early.',
        'Broke after two days. Very disappointed.',
        'It does what it says, nothing more.',
      ].join('\n'),
      labels: [
        'positive: love it, works great',
        'negative: broke, very disappointed',
        'neutral: it does the job, nothing special',
      ].join('\n'),
    },
  },
  {
    id: 'multilingual',
    label: msg`Several languages`,
    values: {
      input: [
        'Der Zug nach Berlin hat zwanzig Minuten Verspätung.',
        'El parlamento aprobó ayer la nueva ley de impuestos.',
        '新しいスマートフォンは来月発売されます。',
      ].join('\n'),
      labels: ['Travel', 'Politics', 'Technology'].join('\n'),
    },
  },
]
