import { useLingui } from '@lingui/react/macro'
import { CheckIcon, CopyIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { notify } from './notify'

/** Copies `value`; its accessible name says what (`label`), and the icon turns to a tick for a moment once done. */
export function CopyButton({ value, label, testId }: { value: string; label: string; testId?: string }) {
  const { t } = useLingui()
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopied(true)
      setTimeout(() => setCopied(false), 2000)
    } catch {
      notify.error(t`Could not copy: your browser did not allow access to the clipboard`)
    }
  }
  return (
    <Button variant="ghost" size="icon" onClick={() => void copy()} aria-label={label} data-testid={testId}>
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
    </Button>
  )
}
