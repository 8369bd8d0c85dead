import { Trans, useLingui } from '@lingui/react/macro'
import { createContext, useCallback, useContext, useState, type ReactNode } from 'react'
import { Button } from '~/components/ui/button'
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '~/components/ui/dialog'

const CloseDialog = createContext<() => void>(() => {})

/** Closes the dialog around the caller: for a panel that closes itself once its action succeeded. */
export const useCloseDialog = () => useContext(CloseDialog)

/**
 * The one dialog a screen asks a question with (spec §9's transition, a labelled close button): `trigger`
 * opens it, `children` is its panel (usually a ConfirmPanel). `fresh` mounts the panel only while open, so
 * its state (a captcha, a pending call) starts anew each time; otherwise it stays through the closing fade.
 */
export function ConfirmDialog({
  trigger,
  fresh = false,
  children,
}: {
  trigger: ReactNode
  fresh?: boolean
  children: ReactNode
}) {
  const { t } = useLingui()
  const [open, setOpen] = useState(false)
  const close = useCallback(() => setOpen(false), [])
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent closeLabel={t`Close`}>
        <CloseDialog value={close}>{(open || !fresh) && children}</CloseDialog>
      </DialogContent>
    </Dialog>
  )
}

/**
 * A dialog's question: its title, what it does, what else it needs (`children`: a captcha, a warning), and
 * its answers: Cancel and the action, or `footer` where the answers are others.
 */
export function ConfirmPanel({
  title,
  description,
  children,
  footer,
  confirmLabel,
  cancelLabel = <Trans>Cancel</Trans>,
  onConfirm,
  destructive = false,
  busy = false,
  confirmTestId,
  autoFocus = false,
}: {
  title: ReactNode
  description: ReactNode
  children?: ReactNode
  footer?: ReactNode
  confirmLabel?: ReactNode
  cancelLabel?: ReactNode
  /** Called with the dialog's close, to call once the action has succeeded. */
  onConfirm?: (close: () => void) => void
  destructive?: boolean
  busy?: boolean
  confirmTestId?: string
  autoFocus?: boolean
}) {
  const close = useCloseDialog()
  return (
    <>
      <DialogHeader>
        <DialogTitle>{title}</DialogTitle>
        <DialogDescription>{description}</DialogDescription>
      </DialogHeader>
      {children}
      {footer ?? (
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="outline">{cancelLabel}</Button>
          </DialogClose>
          <Button
            variant={destructive ? 'destructive' : 'default'}
            onClick={() => onConfirm?.(close)}
            disabled={busy}
            data-testid={confirmTestId}
            autoFocus={autoFocus}
          >
            {confirmLabel}
          </Button>
        </DialogFooter>
      )}
    </>
  )
}
