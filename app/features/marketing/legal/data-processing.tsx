import { Trans } from '@lingui/react/macro'
import { brand } from '#config'
import { Clause, LegalSection } from './legal-section'

export function DataProcessingTerms() {
  const sales = brand.salesEmail
  return (
    <LegalSection id="data-processing" title={<Trans>Data processing terms</Trans>}>
      <p className="mt-4 text-muted-foreground">
        <Trans>
          When you send personal data to the API on behalf of your own users, you are the controller and we process it
          for you. These terms form the data processing agreement under Article 28 GDPR between you and us.
        </Trans>
      </p>
      <Clause title={<Trans>Subject and duration</Trans>}>
        <p>
          <Trans>
            We process API content only to provide the requested service (reading, embedding, reranking, classifying,
            segmenting, searching) for as long as you use the service.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Instructions and confidentiality</Trans>}>
        <p>
          <Trans>
            We process personal data only on your documented instructions, which are your API requests and these terms.
            Everyone at our company with access to it is bound to confidentiality.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Security</Trans>}>
        <p>
          <Trans>
            We encrypt data in transit and at rest, store API keys only as hashes, restrict access by role, log
            administrative access and test our backups. A description of our technical and organisational measures is
            available on request.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Sub-processors</Trans>}>
        <p>
          <Trans>
            We use sub-processors for hosting and e-mail delivery. We inform you at least 30 days before adding or
            replacing one, and you may object; if we cannot accommodate the objection, you may terminate.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Assistance, breaches and audits</Trans>}>
        <p>
          <Trans>
            We help you answer data-subject requests and carry out impact assessments. We notify you without undue
            delay, and within 48 hours, after becoming aware of a personal data breach affecting your data. You may
            audit our compliance once a year with reasonable notice, or rely on our current third-party audit reports.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Deletion</Trans>}>
        <p>
          <Trans>
            At the end of the service, we delete your API content, except where the law requires us to keep it. A signed
            copy of these terms, or an agreement tailored to your organisation, is available from {sales}.
          </Trans>
        </p>
      </Clause>
    </LegalSection>
  )
}
