import { msg } from '@lingui/core/macro'
import type { EmbeddingTask } from '~/contracts/search'
import type { Example } from '../parts/example-picker'

export interface EmbeddingsValues {
  /** One input per line. */
  input: string
  task: EmbeddingTask | ''
  /** Empty: the model's full dimension. */
  dimensions: string
}

/**
 * Texts stay in their own languages: comparing them is the point. No example sets a task: the default engine
 * does not apply one and says so (X-Options-Not-Applied); the field is there for engines that do.
 */
export const embeddingsExamples: readonly Example<EmbeddingsValues>[] = [
  {
    id: 'paraphrases',
    label: msg`Paraphrases`,
    values: {
      input: [
        'The cat sat on the mat.',
        'A cat was sitting on the mat.',
        'Stock markets fell sharply this morning.',
      ].join('\n'),
      task: '',
      dimensions: '',
    },
  },
  {
    id: 'multilingual',
    label: msg`Several languages`,
    values: {
      input: [
        'Organic skincare for sensitive skin',
        'Bio-Hautpflege für empfindliche Haut',
        'Soins bio pour peaux sensibles',
        '敏感肌のためのオーガニックスキンケア',
        'Sustainable gardening kits for urban balconies',
      ].join('\n'),
      task: '',
      dimensions: '',
    },
  },
  {
    id: 'search',
    label: msg`Search passages`,
    values: {
      input: [
        'To reset your password, open Settings, choose Security and follow the link we email you.',
        'Our support team answers every day from 8:00 to 20:00 CET.',
        'Invoices are sent by email at the start of each month.',
      ].join('\n'),
      task: '',
      dimensions: '256',
    },
  },
]

export const dimensionChoices = ['', '1024', '512', '256', '128', '64'] as const
