import { inject } from 'vitest'
import { describeRouteMatrix } from './support/route-matrix'

// The locales seen in the light theme are in routes.test.ts: two files, so the two e2e workers share them.
describeRouteMatrix(inject('baseUrl'), true)
