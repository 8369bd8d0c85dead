import { Trans, useLingui } from '@lingui/react/macro'
import { LocalizedLink } from '~/components/site/localized-link'
import { PageHeader } from '~/components/marketing/section'
import { brand } from '#config'
import type { OpenApiDocument } from './openapi-types'
import { OperationSection } from './operation-section'
import { MethodBadge, useGroupTitle } from './reference-bits'
import { referenceModel, type ReferenceModel } from './reference-model'
import { ScrollTable } from './schema-table'
import { useOpenLinkedOperation } from './use-open-linked-operation'

const codeClass = 'rounded bg-muted px-1.5 py-0.5 font-mono text-[0.85em]'
const subsection = 'scroll-mt-24 text-lg font-semibold'

/** The dashboard API, described from the OpenAPI document the server also publishes. */
export function ApiReferencePage({ document }: { document: OpenApiDocument }) {
  const model = referenceModel(document)
  const groupTitle = useGroupTitle()
  useOpenLinkedOperation()
  return (
    <>
      <PageHeader
        eyebrow={<Trans>Developers</Trans>}
        title={<Trans>API reference</Trans>}
        lead={
          <Trans>
            Every endpoint for keys, balance, usage, transfers, alerts, models and token packs. This page is generated
            from the same schemas the server checks requests with.
          </Trans>
        }
      >
        <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
          <a href="/api/v1/openapi.json" className="font-medium text-primary underline-offset-4 hover:underline">
            <Trans>Download the OpenAPI 3.1 document</Trans>
          </a>
          <LocalizedLink to="/{-$locale}/docs" className="font-medium text-primary underline-offset-4 hover:underline">
            <Trans>Read the documentation: guides with tested samples</Trans>
          </LocalizedLink>
        </p>
      </PageHeader>
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <Contents model={model} />
        <div className="min-w-0 space-y-16">
          <Overview model={model} />
          {model.groups.map((group) => (
            <section
              key={group.id}
              id={group.id}
              aria-labelledby={`${group.id}-title`}
              className="scroll-mt-20 space-y-10"
            >
              <h2 id={`${group.id}-title`} className="text-2xl font-semibold tracking-tight">
                {groupTitle(group.id)}
              </h2>
              {group.operations.map((operation) => (
                <OperationSection key={operation.id} operation={operation} />
              ))}
            </section>
          ))}
        </div>
      </div>
    </>
  )
}

/** Lets a long path wrap after `/` and `_` instead of mid-word. */
function breakable(path: string) {
  return path.split(/(?<=[/_])/).map((part, i) => (
    <span key={i}>
      {i > 0 && <wbr />}
      {part}
    </span>
  ))
}

function Contents({ model }: { model: ReferenceModel }) {
  const { t } = useLingui()
  const groupTitle = useGroupTitle()
  // Every link at least 24 px tall, so a finger finds it (WCAG 2.2 target size): a line of text-sm plus py-0.5,
  // of text-xs plus py-1.
  const link = 'block rounded px-1 text-muted-foreground hover:text-foreground'
  return (
    <nav
      aria-label={t`On this page`}
      className="text-sm lg:sticky lg:top-20 lg:max-h-[calc(100vh-6rem)] lg:self-start lg:overflow-y-auto lg:pr-2"
    >
      <p className="font-semibold">
        <Trans>On this page</Trans>
      </p>
      <ul className="mt-3 space-y-3">
        <li>
          <a href="#overview" className={`${link} py-0.5`}>
            <Trans>Getting started</Trans>
          </a>
        </li>
        {model.groups.map((group) => (
          <li key={group.id}>
            <a href={`#${group.id}`} className={`${link} py-0.5 font-medium text-foreground`}>
              {groupTitle(group.id)}
            </a>
            <ul className="mt-1 space-y-0.5">
              {group.operations.map((operation) => (
                <li key={operation.id}>
                  <a href={`#${operation.id}`} className={`${link} flex items-baseline gap-2 py-1 text-xs`}>
                    <MethodBadge method={operation.method} compact />
                    <span className="min-w-0 font-mono break-words">
                      {breakable(operation.path.replace(/^\/api\/v1/, ''))}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ul>
    </nav>
  )
}

function Overview({ model }: { model: ReferenceModel }) {
  const keyPrefix = brand.keyPrefix
  const header = 'Authorization: Bearer $API_KEY'
  return (
    <section id="overview" aria-labelledby="overview-title" className="scroll-mt-20 space-y-8">
      <h2 id="overview-title" className="text-2xl font-semibold tracking-tight">
        <Trans>Getting started</Trans>
      </h2>
      <div className="space-y-2">
        <h3 id="base-url" className={subsection}>
          <Trans>Base URL</Trans>
        </h3>
        <p>
          <Trans>
            All paths below are relative to <code className={codeClass}>{model.baseUrl}</code>. Requests and answers are
            JSON unless an endpoint says otherwise.
          </Trans>
        </p>
      </div>
      <div className="space-y-2">
        <h3 id="authentication" className={subsection}>
          <Trans>Authentication</Trans>
        </h3>
        <p>
          <Trans>
            Send your API key in the <code className={codeClass}>{header}</code> header. Keys start with{' '}
            <code className={codeClass}>{keyPrefix}</code>; get one on the{' '}
            <LocalizedLink to="/{-$locale}/api-dashboard/{-$tab}" className="text-primary underline underline-offset-4">
              API dashboard
            </LocalizedLink>
            . Keep it secret: anyone with the key can spend its balance.
          </Trans>
        </p>
        <p className="text-muted-foreground">
          <Trans>Requests are rate limited per key and per client address; above the limit the answer is 429.</Trans>
        </p>
      </div>
      <ErrorsOverview model={model} />
    </section>
  )
}

function ErrorsOverview({ model }: { model: ReferenceModel }) {
  const { t } = useLingui()
  const shape = '{detail}'
  const plain = '{"detail": "Transaction not found"}'
  const invalid = '{"detail": [{"loc": ["body", "email"], "msg": "must be an e-mail address", "type": "email"}]}'
  return (
    <div className="space-y-3">
      <h3 id="errors" className={subsection}>
        <Trans>Errors</Trans>
      </h3>
      <p>
        <Trans>
          A failed request answers with its HTTP status and a JSON body <code className={codeClass}>{shape}</code>.
          Usually the detail is a sentence you can show to people; for invalid input (422) it lists each problem with
          its location:
        </Trans>
      </p>
      <pre
        tabIndex={0}
        aria-label={t`Examples of error bodies`}
        className="overflow-x-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
      >
        <code>{`${plain}\n${invalid}`}</code>
      </pre>
      <p>
        <Trans>Invalid input changes nothing.</Trans>
      </p>
      <ScrollTable
        caption={t`Error statuses`}
        columns={[<Trans key="status">Status</Trans>, <Trans key="meaning">Meaning</Trans>]}
        narrowFirst
      >
        <tbody>
          {model.errors.map((error) => (
            <tr key={error.status}>
              <th scope="row">{error.status}</th>
              <td lang="en">{error.description}</td>
            </tr>
          ))}
        </tbody>
      </ScrollTable>
    </div>
  )
}
