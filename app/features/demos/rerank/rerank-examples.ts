import { msg } from '@lingui/core/macro'
import type { Example } from '../parts/example-picker'

export interface RerankValues {
  query: string
  /** One document per line. */
  documents: string
  /** Empty: every document comes back. */
  topN: string
}

export const rerankExamples: readonly Example<RerankValues>[] = [
  {
    id: 'products',
    label: msg`Product search`,
    values: {
      query: 'Organic skincare products for sensitive skin',
      documents: [
        'Eco-friendly kitchenware for modern homes',
        'Natural organic skincare range for sensitive skin',
        'Sustainable gardening kits for urban spaces',
        'Fragrance-free moisturiser, gentle on sensitive skin',
      ].join('\n'),
      topN: '',
    },
  },
  {
    id: 'support',
    label: msg`Help centre`,
    values: {
      query: 'How do I change the email address on my account?',
      documents: [
        'Invoices are sent by email at the start of each month.',
        'To change your email address, open Account settings and edit the email field.',
        'You can close your account at any time from the privacy page.',
        'Passwords must be at least twelve characters long.',
      ].join('\n'),
      topN: '3',
    },
  },
  {
    id: 'multilingual',
    label: msg`Several languages`,
    values: {
      query: 'Hautpflege für empfindliche Haut',
      documents: [
        'Gartenwerkzeug für kleine Balkone',
        'Bio-Hautpflege für empfindliche Haut, ohne Duftstoffe',
        'Natural skincare for sensitive skin',
        'Cuisine écologique pour la maison moderne',
      ].join('\n'),
      topN: '',
    },
  },
]
