import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { BookOpen, Coins, Globe2, Minimize2 } from 'lucide-react'
import { models } from '#content/models'
import { offices } from '#content/offices'
import { ossProjects } from '#content/oss'
import { papers } from '#content/papers'
import { OssStatusBadge } from '~/components/site/oss-status-badge'
import { LocalizedLink } from '~/components/site/localized-link'
import { Button } from '~/components/ui/button'
import { brand } from '#config'
import { PageHeader, Section } from '~/components/marketing/section'

export function AboutPage() {
  const { i18n } = useLinguiRuntime()
  const { t } = useLingui()
  const values = [
    {
      icon: BookOpen,
      title: t`Research in the open`,
      body: t`Every model we ship comes with a paper and open weights, so you can check our claims and run the models yourself.`,
    },
    {
      icon: Minimize2,
      title: t`Small models, done well`,
      body: t`A 0.6B reranker that beats models ten times its size is cheaper to run for us and faster for you.`,
    },
    {
      icon: Globe2,
      title: t`Multilingual from the start`,
      body: t`Search is not only English. Our embeddings, rerankers and reader models are trained for dozens of languages.`,
    },
    {
      icon: Coins,
      title: t`Pay for what you use`,
      body: t`One API key, one token balance, no seats and no minimum commitment. Enterprises can still sign a contract.`,
    },
  ]
  return (
    <>
      <PageHeader
        eyebrow={<Trans>About us</Trans>}
        title={<Trans>We build the foundations that search runs on</Trans>}
        lead={
          <Trans>
            {brand.name} makes models and APIs that turn web pages and documents into something a search engine or a
            language model can use: clean text, vectors, rankings and answers.
          </Trans>
        }
      />
      <Section id="story" title={<Trans>What we do</Trans>}>
        <div className="grid gap-10 lg:grid-cols-[3fr_2fr]">
          <div className="space-y-4 text-muted-foreground">
            <p>
              <Trans>
                Good search needs more than a large language model. It needs to read pages reliably, represent meaning
                in many languages, put the right document first and know when to look further. Each of those steps is a
                product of ours, and each one works on its own or with the others.
              </Trans>
            </p>
            <p>
              <Trans>
                We are a research team as much as a product team. The models behind our API are published with their
                papers at venues such as ACL, SIGIR, EMNLP and NeurIPS, and most of them can be downloaded from Hugging
                Face.
              </Trans>
            </p>
            <p>
              <Trans>
                Developers use us through a pay-as-you-go API; enterprises also buy through the large cloud marketplaces
                or run our models on their own infrastructure.
              </Trans>
            </p>
          </div>
          <dl className="grid grid-cols-2 gap-4 self-start">
            {[
              { value: i18n.number(papers.length), label: t`research papers` },
              { value: i18n.number(models.length), label: t`models in the catalogue` },
              { value: i18n.number(offices.length), label: t`offices, in Berlin and Sunnyvale` },
              { value: i18n.number(ossProjects.length), label: t`open-source projects` },
            ].map((fact) => (
              <div key={fact.label} className="flex flex-col-reverse gap-1 rounded-xl border bg-card p-5">
                <dt className="text-sm text-muted-foreground">{fact.label}</dt>
                <dd className="text-3xl font-semibold tabular-nums">{fact.value}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>
      <Section id="values" className="bg-muted/40" title={<Trans>How we work</Trans>}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {values.map((value) => (
            <li key={value.title} className="rounded-xl border bg-card p-5">
              <value.icon aria-hidden className="size-5 text-primary" />
              <h3 className="mt-3 font-semibold">{value.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{value.body}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="offices" title={<Trans>Where we work</Trans>}>
        <ul className="grid gap-4 sm:grid-cols-2">
          {offices.map((office) => (
            <li key={office.id} className="rounded-xl border bg-card p-6">
              <h3 className="font-semibold">
                {i18n._(office.label)}
                {office.kind === 'headquarters' && (
                  <span className="ml-2 text-sm font-normal text-muted-foreground">
                    (<Trans>Headquarters</Trans>)
                  </span>
                )}
              </h3>
              <address className="mt-2 text-sm not-italic text-muted-foreground">
                {office.address.map((line) => (
                  <span key={line} className="block">
                    {line}
                  </span>
                ))}
              </address>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="open-source" className="bg-muted/40" title={<Trans>Our open-source projects</Trans>}>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {ossProjects.map((project) => (
            <li key={project.name} className="flex flex-col gap-2 rounded-xl border bg-card p-5">
              <div className="flex items-center justify-between gap-2">
                <h3 className="font-mono text-sm font-semibold">
                  <a href={project.repo} rel="noopener" target="_blank" className="underline-offset-4 hover:underline">
                    {project.name}
                  </a>
                </h3>
                <OssStatusBadge status={project.status} />
              </div>
              <p lang="en" className="text-sm text-muted-foreground">
                {project.description}
              </p>
            </li>
          ))}
        </ul>
      </Section>
      <Section
        id="join"
        title={<Trans>Work with us</Trans>}
        intro={<Trans>Talk to us about a partnership or a large deployment, or join the team as an intern.</Trans>}
      >
        <div className="flex flex-wrap gap-3">
          <Button asChild size="lg">
            <LocalizedLink to="/{-$locale}/contact-sales">
              <Trans>Contact sales</Trans>
            </LocalizedLink>
          </Button>
          <Button asChild size="lg" variant="outline">
            <LocalizedLink to="/{-$locale}/internship">
              <Trans>Internships</Trans>
            </LocalizedLink>
          </Button>
        </div>
      </Section>
    </>
  )
}
