import { msg } from '@lingui/core/macro'
import { brand } from '#config'
import type { JobSeason } from './schemas'
import { coverFromSvg } from './vocabulary'

const apply = (id: string) => `https://careers.${brand.domain}/internship/${id}`

export const jobSeasons: JobSeason[] = [
  {
    id: 'winter-2025',
    season: msg`Winter`,
    year: 2025,
    background: coverFromSvg('/images/jobs/winter-2025.svg'),
    url: apply('winter-2025'),
  },
  {
    id: 'spring-2026',
    season: msg`Spring`,
    year: 2026,
    background: coverFromSvg('/images/jobs/spring-2026.svg'),
    url: apply('spring-2026'),
  },
]
