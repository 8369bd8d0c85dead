import { BaseSequencer, type TestSpecification } from 'vitest/node'

/** The longest e2e files, longest first (BENCHMARKS-LOG.md, "npm test time"). */
const longest = ['demos', 'routes', 'routes-dark', 'layout', 'payments', 'guards', 'dashboard-data']
const rank = (spec: TestSpecification) => {
  const index = longest.findIndex((name) => spec.moduleId.endsWith(`/tests/e2e/${name}.test.ts`))
  return index === -1 ? longest.length : index
}

/**
 * Vitest's order, except that the longest e2e files start first even without the timings of an earlier run (a
 * fresh clone, CI): by size the route matrix's two small files came last, and one worker ran a half alone at the
 * end while the other had finished. Only the e2e files move, among the places they already had.
 */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files)
    const places = sorted.flatMap((spec, index) => (spec.project.name === 'e2e' ? [index] : []))
    const e2e = places.map((index) => sorted[index]!)
    // Stable: the files not named keep vitest's order after the named ones.
    e2e.sort((a, b) => rank(a) - rank(b))
    places.forEach((place, i) => (sorted[place] = e2e[i]!))
    return sorted
  }
}
