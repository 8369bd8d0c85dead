import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { docsEntryForPath } from '#content/docs-index'
import { LocalizedLink } from '~/components/site/localized-link'
import type { ReferenceOperation, ResponseEntry } from './reference-model'
import { constraintsOf, propertyRows, typeLabel } from './schema-rows'
import { Details, PropertyTable, RequiredCell, ScrollTable } from './schema-table'
import { AuthLabel, DocText, MethodBadge, useParameterPlace } from './reference-bits'

const subheading = 'mt-6 mb-2 text-sm font-semibold'

/** One endpoint: what it does, what it takes, what it answers, and a call to copy. */
export function OperationSection({ operation }: { operation: ReferenceOperation }) {
  const { t } = useLingui()
  const { i18n } = useLinguiRuntime()
  const place = useParameterPlace()
  const { id, method, path, summary, description, parameters, body, responses } = operation
  // The page of the documentation that explains this API with its options, errors and tested samples.
  const guide = docsEntryForPath(path)
  const guideTitle = guide ? i18n._(guide.title) : ''
  const label = `${method.toUpperCase()} ${path}`
  const bodyRows = body ? propertyRows(body.schema) : []
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-24 border-t pt-8">
      <h3 id={`${id}-title`} className="flex flex-wrap items-center gap-2 text-lg font-semibold">
        <MethodBadge method={method} />
        <code className="font-mono text-base break-all">{path}</code>
      </h3>
      {summary && (
        <p lang="en" className="mt-3 font-medium">
          {summary}
        </p>
      )}
      {description && <DocText text={description} className="mt-1 text-muted-foreground" />}
      <p className="mt-3 text-sm">
        <span className="font-medium">
          <Trans>Authentication:</Trans>
        </span>{' '}
        <AuthLabel auth={operation.auth} />
      </p>
      {guide && (
        <p className="mt-1 text-sm">
          <LocalizedLink
            to="/{-$locale}/docs/$slug"
            params={{ slug: guide.slug }}
            className="font-medium text-primary underline-offset-4 hover:underline"
          >
            <Trans>Guide: {guideTitle}</Trans>
          </LocalizedLink>
        </p>
      )}
      {/* Closed until asked for: the whole reference open at once is ~8,000 elements to lay out before the first
          paint on a phone. A link to the operation opens it (useOpenLinkedOperation). */}
      <details data-operation={id} className="group mt-4">
        <summary className="inline-flex min-h-6 cursor-pointer items-center gap-1 rounded text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none">
          <span className="group-open:hidden">
            <Trans>Show parameters, responses and an example</Trans>
          </span>
          <span className="hidden group-open:inline">
            <Trans>Hide parameters, responses and the example</Trans>
          </span>
        </summary>

        {parameters.length > 0 && (
          <>
            <h4 className={subheading}>
              <Trans context="api request">Parameters</Trans>
            </h4>
            <ScrollTable
              caption={t`Parameters of ${label}`}
              columns={[
                <Trans key="name" context="api request">
                  Name
                </Trans>,
                <Trans key="in">In</Trans>,
                <Trans key="type">Type</Trans>,
                <Trans key="required">Required</Trans>,
                <Trans key="description">Description</Trans>,
              ]}
            >
              <tbody>
                {parameters.map((param) => (
                  <tr key={`${param.in}-${param.name}`}>
                    {/* Names and types are the API's own words, the same in every language. */}
                    <th scope="row" translate="no" className="whitespace-nowrap">
                      {param.name}
                    </th>
                    <td>{place(param.in)}</td>
                    <td translate="no" className="font-mono text-xs">
                      {typeLabel(param.schema ?? {})}
                    </td>
                    <RequiredCell required={param.required ?? false} />
                    <Details description={param.description} constraints={constraintsOf(param.schema ?? {})} />
                  </tr>
                ))}
              </tbody>
            </ScrollTable>
          </>
        )}

        {body && (
          <>
            <h4 className={subheading}>
              <Trans>Request body</Trans>
            </h4>
            <p className="mb-2 text-sm text-muted-foreground">
              <Trans>Content type:</Trans>{' '}
              {body.contentTypes.map((type, i) => (
                <span key={type}>
                  {i > 0 && ', '}
                  <code className="font-mono text-xs text-foreground">{type}</code>
                </span>
              ))}
              {body.schema.additionalProperties === false && (
                <>
                  {' '}
                  · <Trans>other fields are refused with 422</Trans>
                </>
              )}
            </p>
            {bodyRows.length > 0 && <PropertyTable rows={bodyRows} caption={t`Request body of ${label}`} />}
          </>
        )}

        <h4 className={subheading}>
          <Trans>Responses</Trans>
        </h4>
        <ResponseTable responses={responses} label={label} />
        {responses
          .filter((response) => response.schema)
          .map((response) => (
            <ResponseBody key={response.status} response={response} label={label} />
          ))}

        <h4 className={subheading}>
          <Trans>Example</Trans>
        </h4>
        <pre
          tabIndex={0}
          aria-label={t`curl example for ${label}`}
          className="overflow-x-auto rounded-md border bg-muted/50 p-3 font-mono text-xs leading-relaxed focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none"
        >
          <code>{operation.curl}</code>
        </pre>
      </details>
    </section>
  )
}

function ResponseTable({ responses, label }: { responses: ResponseEntry[]; label: string }) {
  const { t } = useLingui()
  return (
    <ScrollTable
      caption={t`Response statuses of ${label}`}
      columns={[<Trans key="status">Status</Trans>, <Trans key="description">Description</Trans>]}
      narrowFirst
    >
      <tbody>
        {responses.map((response) => (
          <tr key={response.status}>
            <th scope="row">
              {response.status.startsWith('2') ? (
                response.status
              ) : (
                <a href="#errors" className="underline-offset-2 hover:underline">
                  {response.status}
                </a>
              )}
            </th>
            <td lang="en">{response.description}</td>
          </tr>
        ))}
      </tbody>
    </ScrollTable>
  )
}

function ResponseBody({ response, label }: { response: ResponseEntry; label: string }) {
  const { t } = useLingui()
  const schema = response.schema!
  const rows = propertyRows(schema)
  const type = typeLabel(schema)
  const status = response.status
  return (
    <>
      <p className="mt-4 mb-2 text-sm">
        <Trans>Response body ({status}):</Trans>{' '}
        <code className="font-mono text-xs">{type === 'any' ? t`any JSON value` : type}</code>
      </p>
      {rows.length > 0 && <PropertyTable rows={rows} caption={t`Response body of ${label} with status ${status}`} />}
    </>
  )
}
