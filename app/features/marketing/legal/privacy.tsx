import { Trans } from '@lingui/react/macro'
import { offices } from '#content/offices'
import { brand } from '#config'
import { Clause, LegalSection } from './legal-section'

export function PrivacyPolicy() {
  const headquarters = offices.find((o) => o.kind === 'headquarters')
  const address = (headquarters?.address ?? [brand.legalName]).join(', ')
  const email = brand.supportEmail
  return (
    <LegalSection id="privacy" title={<Trans>Privacy policy</Trans>}>
      <Clause title={<Trans>Controller</Trans>}>
        <p>
          <Trans>
            {address} is responsible for the processing of personal data described here. Contact: {email}.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>What we collect and why</Trans>}>
        <ul>
          <li>
            <Trans>
              <strong>Account data</strong> (name, e-mail, sign-in provider) to run your account, under our contract
              with you.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>API keys and usage</strong> (token counts, timestamps, endpoints, IP address) for billing, rate
              limiting and abuse prevention, under our contract and our legitimate interest in a secure service.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Payment data</strong> is handled by our payment provider; we receive only the payment status and
              the last digits of the card.
            </Trans>
          </li>
          <li>
            <Trans>
              <strong>Contact requests</strong> from the contact-sales form (name, work e-mail, company, message) to
              answer you, under our legitimate interest in replying to enquiries.
            </Trans>
          </li>
        </ul>
      </Clause>
      <Clause title={<Trans>API content</Trans>}>
        <p>
          <Trans>
            Texts, images and URLs you send to the API are processed to produce the answer and are not stored beyond
            what caching and abuse prevention need, at most 30 days. Bulk-embedding files and their results are deleted
            30 days after the job completes. We do not train on API content without your written consent.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Your browser</Trans>}>
        <p>
          <Trans>
            This site stores your settings (language, theme) and your API key in your browser's local storage, and your
            key in a cookie for our own domain so our APIs can read it. We use no advertising or third-party tracking
            cookies. The captcha is a proof-of-work challenge solved in your browser; it sets no cookies.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Recipients and transfers</Trans>}>
        <p>
          <Trans>
            We use processors for hosting, payments and e-mail, bound by data-processing agreements. Where data leaves
            the European Economic Area, we rely on adequacy decisions or standard contractual clauses.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Retention</Trans>}>
        <p>
          <Trans>
            Account and billing records are kept for as long as your account exists and then for the periods tax law
            requires (up to ten years for invoices). Contact requests are deleted two years after our last exchange.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>Your rights</Trans>}>
        <p>
          <Trans>
            You may ask for access, correction, deletion, restriction, portability, and object to processing based on
            legitimate interest. Write to {email}. You may also complain to a data-protection authority, for us the
            Berlin Commissioner for Data Protection and Freedom of Information.
          </Trans>
        </p>
      </Clause>
    </LegalSection>
  )
}
