import { msg } from '@lingui/core/macro'
import { brand } from '#config'
import type { Office } from './schemas'

// Fictional addresses.
export const offices: Office[] = [
  {
    id: 'sunnyvale',
    label: msg`Sunnyvale, CA`,
    kind: 'office',
    address: [`${brand.name} Inc.`, '488 Borregas Crescent, Suite 300', 'Sunnyvale, CA 94089', 'United States'],
  },
  {
    id: 'berlin',
    label: msg`Berlin, Germany`,
    kind: 'headquarters',
    address: [brand.legalName, 'Prinzessinnenhof 7', '10969 Berlin', 'Germany'],
  },
]
