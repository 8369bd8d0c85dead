import { Trans } from '@lingui/react/macro'
import { brand } from '#config'
import { Clause, LegalSection } from './legal-section'

export function TermsOfService() {
  const company = brand.legalName
  const email = brand.supportEmail
  return (
    <LegalSection id="terms" title={<Trans>Terms of service</Trans>}>
      <Clause title={<Trans>1. Who we are and what these terms cover</Trans>}>
        <p>
          <Trans>
            These terms govern your use of the APIs, models, dashboard and website operated by {company}, Berlin,
            Germany ("we"). By creating an API key or calling the API you accept them. If you act for an organisation,
            you confirm that you may bind it.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>2. API keys</Trans>}>
        <p>
          <Trans>
            An API key identifies your account and carries your token balance. Keep it secret: anyone who holds the key
            can spend its balance. You can revoke a key and transfer its balance to a new one in the dashboard. We may
            suspend keys that are used in breach of these terms.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>3. Tokens, prices and payment</Trans>}>
        <p>
          <Trans>
            Usage is measured in tokens and deducted from your balance as requests complete. Free tokens granted with a
            new key have no cash value. Token packs are paid in advance through our payment provider; prices are shown
            before you pay and include the taxes stated at checkout. If you enable auto-recharge, you authorise us to
            charge your saved payment method when your balance falls below the threshold you set.
          </Trans>
        </p>
        <p>
          <Trans>
            Purchased tokens are non-refundable except where the law requires otherwise or where we fail to provide the
            service.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>4. Acceptable use</Trans>}>
        <p>
          <Trans>You must not use the service to:</Trans>
        </p>
        <ul>
          <li>
            <Trans>break the law or infringe the rights of others, including copyright and privacy;</Trans>
          </li>
          <li>
            <Trans>
              circumvent rate limits, share keys to pool free tokens or resell access without our written agreement;
            </Trans>
          </li>
          <li>
            <Trans>
              read pages you are not allowed to access, or overload third-party websites through the Reader;
            </Trans>
          </li>
          <li>
            <Trans>probe, attack or reverse-engineer the service beyond what the model licences allow.</Trans>
          </li>
        </ul>
      </Clause>
      <Clause title={<Trans>5. Your content and outputs</Trans>}>
        <p>
          <Trans>
            You keep all rights in the inputs you send and the outputs you receive. You give us the limited right to
            process them in order to provide the service. We do not use API inputs or outputs to train our models unless
            you agree to it in writing.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>6. Models and open weights</Trans>}>
        <p>
          <Trans>
            Models we publish on Hugging Face are governed by the licence stated on each model card. Several are
            licensed for non-commercial use only; commercial use of those weights outside the API requires a licence
            from us.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>7. Availability and changes</Trans>}>
        <p>
          <Trans>
            We aim for high availability but do not guarantee uninterrupted service unless an enterprise agreement says
            so. We may retire a model with at least 90 days' notice in the dashboard or by e-mail, and will name a
            successor.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>8. Liability</Trans>}>
        <p>
          <Trans>
            Outputs of machine-learning models can be wrong; check them before you rely on them. We are liable without
            limitation for intent and gross negligence and under mandatory law. Otherwise, our liability is limited to
            foreseeable damage and, in total, to the amount you paid us in the twelve months before the claim.
          </Trans>
        </p>
      </Clause>
      <Clause title={<Trans>9. Termination, law and contact</Trans>}>
        <p>
          <Trans>
            You may stop using the service at any time. We may end these terms with 30 days' notice, or at once for
            serious breach. German law applies, excluding the UN Convention on Contracts for the International Sale of
            Goods; the courts of Berlin have jurisdiction where the law allows. Questions: {email}.
          </Trans>
        </p>
      </Clause>
    </LegalSection>
  )
}
