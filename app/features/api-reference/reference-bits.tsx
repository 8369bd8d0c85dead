import { Trans, useLingui } from '@lingui/react/macro'
import { cn } from '~/lib/utils'
import type { ParameterObject } from './openapi-types'
import type { AuthKind } from './reference-model'

const methodTone: Record<string, string> = {
  get: 'bg-emerald-500/15 text-emerald-800 dark:text-emerald-300',
  post: 'bg-sky-500/15 text-sky-800 dark:text-sky-300',
  delete: 'bg-rose-500/15 text-rose-800 dark:text-rose-300',
}

/** The HTTP method as a coloured tag; `compact` for the sidebar's list of operations. */
export function MethodBadge({ method, compact = false }: { method: string; compact?: boolean }) {
  return (
    <span
      translate="no"
      className={cn(
        'inline-flex shrink-0 items-center justify-center rounded-md font-mono font-medium whitespace-nowrap uppercase',
        compact ? 'min-w-12 px-1 text-[0.65rem]' : 'min-w-14 px-2 py-0.5 text-xs',
        methodTone[method],
      )}
    >
      {method}
    </span>
  )
}

export function AuthLabel({ auth }: { auth: AuthKind }) {
  switch (auth) {
    case 'key':
      return <Trans>API key as bearer token</Trans>
    case 'key-optional':
      return <Trans>API key as bearer token (optional: without one, a lower limit per address)</Trans>
    case 'key-or-query':
      return (
        <Trans>
          API key as bearer token or in the <code className="font-mono text-xs">api_key</code> query parameter
        </Trans>
      )
    case 'service':
      return (
        <Trans>
          service token (<code className="font-mono text-xs">USAGE_SERVICE_TOKEN</code>) as bearer token
        </Trans>
      )
    case 'id-token':
      return <Trans>the signed-in user's ID token as bearer token</Trans>
    case 'session':
      return <Trans>the session cookie of a signed-in dashboard</Trans>
    case 'admin-key':
      return (
        <Trans>
          Administration API key (<code className="font-mono text-xs">sk-admin-…</code>) as bearer token
        </Trans>
      )
    case 'none':
      return <Trans>none</Trans>
  }
}

/** Where a parameter travels (OpenAPI's `in`), in the reader's language. */
export function useParameterPlace() {
  const { t } = useLingui()
  const places: Record<ParameterObject['in'], string> = {
    path: t({ message: 'path', context: 'api parameter place', comment: 'Where an HTTP request parameter is sent' }),
    query: t({
      message: 'query string',
      context: 'api parameter place',
      comment: 'Where an HTTP request parameter is sent',
    }),
    header: t({
      message: 'header',
      context: 'api parameter place',
      comment: 'Where an HTTP request parameter is sent',
    }),
    cookie: t({
      message: 'cookie',
      context: 'api parameter place',
      comment: 'Where an HTTP request parameter is sent',
    }),
  }
  return (place: ParameterObject['in']) => places[place] ?? place
}

/** Section titles for the path prefixes; an unknown prefix shows as itself. */
export function useGroupTitle() {
  const { t } = useLingui()
  const titles: Record<string, string> = {
    v1: t`Search APIs`,
    api_key: t`API keys`,
    classifiers: t`Classifiers`,
    billing: t`Billing`,
    account: t`Accounts`,
    organization: t`Administration API`,
    models: t`Models`,
    product: t`Token packs`,
    captcha: t`Captcha`,
  }
  return (id: string) => titles[id] ?? id
}

/** English text from the OpenAPI document, with its `code spans` shown as code. */
export function DocText({ text, className }: { text: string; className?: string }) {
  return (
    <p lang="en" className={className}>
      {text.split('`').map((part, i) =>
        i % 2 ? (
          <code key={i} className="font-mono text-[0.85em] text-foreground">
            {part}
          </code>
        ) : (
          part
        ),
      )}
    </p>
  )
}
