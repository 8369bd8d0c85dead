import { Trans, useLingui } from '@lingui/react/macro'
import { FileDownIcon, PrinterIcon, ReceiptIcon } from 'lucide-react'
import { useState } from 'react'
import { Button } from '~/components/ui/button'
import { ConfirmDialog, ConfirmPanel } from '~/components/confirm-dialog'
import { DialogFooter } from '~/components/ui/dialog'
import type { PurchaseItem } from '~/contracts/payments'
import { brand } from '#config'
import { useFormat } from '~/lib/format'
import { downloadFile } from '../download-export'

/** A purchase's receipt: who sold what for how much, paid how; printable, with the payment service's own receipt where it has one. */
export function ReceiptDialog({ apiKey, purchase }: { apiKey: string; purchase: PurchaseItem }) {
  const { t } = useLingui()
  const format = useFormat()
  const [downloading, setDownloading] = useState(false)
  const [problem, setProblem] = useState<string>()
  const cardName = (name: string) => name.charAt(0).toUpperCase() + name.slice(1)
  const downloadInvoice = () => {
    setDownloading(true)
    setProblem(undefined)
    downloadFile(apiKey, `/api/v1/billing/invoices/${purchase.id}`, `${purchase.invoice_number ?? 'invoice'}.pdf`)
      .catch((error: Error) => setProblem(t`The invoice could not be downloaded (${error.message}).`))
      .finally(() => setDownloading(false))
  }
  const rows: Array<[string, string]> = [
    [t`Seller`, brand.legalName],
    [t`Date`, format.dateTime(purchase.paid_at ?? purchase.created_at)],
    [t`Item`, t`${format.tokens(purchase.tokens)} API tokens`],
    [t`Amount`, format.money(purchase.amount, purchase.currency)],
    [t`Paid with`, purchase.card ? t`${cardName(purchase.card.brand)} ending ${purchase.card.last4}` : '—'],
    [t`Purchase`, purchase.id],
    ...(purchase.invoice_number ? [[t`Invoice`, purchase.invoice_number] as [string, string]] : []),
    [t`Payment`, purchase.payment_id ?? '—'],
  ]
  if (purchase.reversed_tokens > 0) rows.push([t`Refunded`, t`${format.tokens(purchase.reversed_tokens)} tokens`])
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" variant="ghost" data-testid="open-receipt">
          <ReceiptIcon aria-hidden="true" />
          <Trans>Receipt</Trans>
        </Button>
      }
    >
      <ConfirmPanel
        title={<Trans>Receipt</Trans>}
        description={
          purchase.sandbox ? (
            <Trans>Sandbox purchase (test mode): no real card was charged.</Trans>
          ) : (
            <Trans>Thank you for your purchase.</Trans>
          )
        }
        footer={
          <DialogFooter className="flex-wrap gap-2">
            {purchase.receipt_url && (
              <a className="text-sm underline" href={purchase.receipt_url} target="_blank" rel="noopener noreferrer">
                <Trans>Receipt from the payment service</Trans>
              </a>
            )}
            {purchase.invoice_number && (
              <Button variant="outline" disabled={downloading} onClick={downloadInvoice} data-testid="download-invoice">
                <FileDownIcon aria-hidden="true" />
                <Trans>Invoice (PDF)</Trans>
              </Button>
            )}
            <Button variant="outline" onClick={() => window.print()}>
              <PrinterIcon aria-hidden="true" />
              <Trans>Print</Trans>
            </Button>
          </DialogFooter>
        }
      >
        <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm" data-testid="receipt">
          {rows.map(([term, value]) => (
            <div key={term} className="contents">
              <dt className="text-muted-foreground">{term}</dt>
              <dd className="break-all">{value}</dd>
            </div>
          ))}
        </dl>
        {problem && (
          <p role="alert" className="text-sm text-destructive">
            {problem}
          </p>
        )}
      </ConfirmPanel>
    </ConfirmDialog>
  )
}
