import { inject } from 'vitest'
import { describeRouteMatrix } from './support/route-matrix'

// The locales seen in the dark theme are in routes-dark.test.ts: two files, so the two e2e workers share them.
describeRouteMatrix(inject('baseUrl'), false)
