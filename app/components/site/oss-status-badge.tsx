import { useLingui } from '@lingui/react/macro'
import type { OssProject } from '#content/schemas'
import { cn } from '~/lib/utils'

const tone: Record<OssProject['status'], string> = {
  incubating: 'bg-amber-500/15 text-amber-800 dark:text-amber-300',
  sandbox: 'bg-sky-500/15 text-sky-800 dark:text-sky-300',
  graduated: 'bg-emerald-500/15 text-emerald-800 dark:text-emerald-300',
  archived: 'bg-muted text-muted-foreground',
  linux_foundation: 'bg-violet-500/15 text-violet-800 dark:text-violet-300',
}

export function OssStatusBadge({ status }: { status: OssProject['status'] }) {
  const { t } = useLingui()
  const label: Record<OssProject['status'], string> = {
    incubating: t`Incubating`,
    sandbox: t`Sandbox`,
    graduated: t`Graduated`,
    archived: t`Archived`,
    linux_foundation: t`Linux Foundation`,
  }
  return (
    <span className={cn('rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', tone[status])}>
      {label[status]}
    </span>
  )
}
