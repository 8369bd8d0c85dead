import { Trans, useLingui } from '@lingui/react/macro'
import { Building2, Mail, ShieldCheck } from 'lucide-react'
import { brand } from '#config'
import { PageHeader } from '~/components/marketing/section'
import { ContactForm } from './contact-form'

export function ContactPage() {
  const { t } = useLingui()
  const reasons = [
    {
      icon: Building2,
      title: t`Volume and contracts`,
      body: t`Token volume discounts, invoices, purchase orders and a signed agreement.`,
    },
    {
      icon: ShieldCheck,
      title: t`Deployment and compliance`,
      body: t`On-premise or private-cloud deployment, data processing terms and security reviews.`,
    },
    {
      icon: Mail,
      title: t`Custom models`,
      body: t`Fine-tuned embeddings and rerankers for your languages, domains and documents.`,
    },
  ]
  return (
    <>
      <PageHeader
        eyebrow={<Trans>Contact sales</Trans>}
        title={<Trans>Let's talk about search at your scale</Trans>}
        lead={
          <Trans>
            For enterprise volumes, on-premise deployment and custom models. Developers can start right away with a free
            API key.
          </Trans>
        }
      />
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 lg:grid-cols-[3fr_2fr]">
        <ContactForm />
        <aside aria-labelledby="contact-reasons" className="flex flex-col gap-6">
          <h2 id="contact-reasons" className="text-lg font-semibold">
            <Trans>What we can help with</Trans>
          </h2>
          <ul className="flex flex-col gap-5">
            {reasons.map((reason) => (
              <li key={reason.title} className="flex gap-3">
                <reason.icon aria-hidden className="mt-0.5 size-5 shrink-0 text-primary" />
                <div>
                  <h3 className="font-medium">{reason.title}</h3>
                  <p className="text-sm text-muted-foreground">{reason.body}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="rounded-xl bg-muted/60 p-5 text-sm text-muted-foreground">
            <Trans>
              Prefer e-mail? Write to{' '}
              <a
                href={`mailto:${brand.salesEmail}`}
                className="font-medium text-primary underline-offset-4 hover:underline"
              >
                {brand.salesEmail}
              </a>
              . We reply within one business day.
            </Trans>
          </p>
        </aside>
      </div>
    </>
  )
}
