import { useLingui } from '@lingui/react/macro'
import type { ExamplesProblem } from './examples'

/** What is wrong with a set of examples, in the interface language. */
export function useExamplesProblem(): (problem: ExamplesProblem) => string {
  const { t } = useLingui()
  return (problem) => {
    switch (problem.kind) {
      case 'empty':
        return t`Add at least one example.`
      case 'no-label':
        return t`Line ${problem.line} needs a label and a text, as "label: text".`
      case 'too-many':
        return t`At most ${problem.max} examples can be trained at once.`
      case 'too-many-labels':
        return t`A classifier can have at most ${problem.max} labels.`
      case 'csv-columns':
        return t`The file needs a header row with a "text" and a "label" column.`
    }
  }
}
