import { Trans, useLingui } from '@lingui/react/macro'
import { DownloadIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { notify } from './notify'
import { toastError } from './queries'

type Format = 'csv' | 'json'

/**
 * The request log's and the audit log's "Export CSV" and "Export JSON": each downloads through `download`,
 * says so when done, and both wait while one runs. `testId` names them `<testId>-csv` and `<testId>-json`.
 */
export function ExportButtons({
  download,
  disabled,
  testId,
}: {
  download: (format: Format) => Promise<void>
  disabled: boolean
  testId: string
}) {
  const { t } = useLingui()
  const [exporting, setExporting] = useState<Format | null>(null)
  const exportAs = async (format: Format) => {
    setExporting(format)
    try {
      await download(format)
      notify.success(t`Export downloaded`)
    } catch (error) {
      toastError(error)
    } finally {
      setExporting(null)
    }
  }
  return (
    <div className="flex flex-wrap gap-2">
      {(['csv', 'json'] as const).map((format) => (
        <Button
          key={format}
          variant="outline"
          size="sm"
          onClick={() => exportAs(format)}
          disabled={exporting !== null || disabled}
          data-testid={`${testId}-${format}`}
        >
          <DownloadIcon aria-hidden="true" />
          {exporting === format ? (
            <Trans>Exporting…</Trans>
          ) : format === 'csv' ? (
            <Trans>Export CSV</Trans>
          ) : (
            <Trans>Export JSON</Trans>
          )}
        </Button>
      ))}
    </div>
  )
}
