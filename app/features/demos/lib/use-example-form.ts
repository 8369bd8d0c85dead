import { useState } from 'react'
import type { Example } from '../parts/example-picker'

/** A demo's form values, starting from its first example; editing a field leaves the example behind. */
export function useExampleForm<Values>(examples: readonly Example<Values>[]) {
  const [values, setValues] = useState<Values>(examples[0].values)
  const [selected, setSelected] = useState<string | undefined>(examples[0].id)
  return {
    values,
    selected,
    select: (example: Example<Values>) => {
      setValues(example.values)
      setSelected(example.id)
    },
    change: (patch: Partial<Values>) => {
      setValues((current) => ({ ...current, ...patch }))
      setSelected(undefined)
    },
  }
}
