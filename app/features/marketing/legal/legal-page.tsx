import { Trans, useLingui } from '@lingui/react/macro'
import { PageHeader } from '~/components/marketing/section'
import { DataProcessingTerms } from './data-processing'
import { PrivacyPolicy } from './privacy'
import { TermsOfService } from './terms'

export function LegalPage() {
  const { t } = useLingui()
  const contents = [
    { id: 'terms', label: t`Terms of service` },
    { id: 'privacy', label: t`Privacy policy` },
    { id: 'data-processing', label: t`Data processing terms` },
  ]
  return (
    <>
      <PageHeader
        title={<Trans>Legal terms</Trans>}
        lead={
          <Trans>
            The terms for using our API and website, how we handle personal data, and how we process data on your
            behalf.
          </Trans>
        }
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-[14rem_1fr]">
        <nav aria-label={t`On this page`} className="lg:sticky lg:top-20 lg:self-start">
          <p className="text-sm font-semibold">
            <Trans>On this page</Trans>
          </p>
          <ul className="mt-3 space-y-2 text-sm">
            {contents.map((item) => (
              <li key={item.id}>
                <a href={`#${item.id}`} className="text-muted-foreground hover:text-foreground">
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="max-w-3xl space-y-12">
          <TermsOfService />
          <PrivacyPolicy />
          <DataProcessingTerms />
          <p className="border-t pt-6 text-sm text-muted-foreground">
            <Trans>
              These texts are written to be readable. If a translation differs from the English version, the English
              version applies.
            </Trans>
          </p>
        </div>
      </div>
    </>
  )
}
