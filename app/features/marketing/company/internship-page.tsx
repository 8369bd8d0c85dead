import { useLingui as useLinguiRuntime } from '@lingui/react'
import { Trans, useLingui } from '@lingui/react/macro'
import { ExternalLink } from 'lucide-react'
import { jobSeasons } from '#content/jobs'
import { CoverPicture } from '~/components/marketing/picture'
import { PageHeader, Section } from '~/components/marketing/section'

function SeasonCards() {
  const { i18n } = useLinguiRuntime()
  return (
    <ul className="grid gap-6 md:grid-cols-2">
      {jobSeasons.map((job, index) => {
        const season = i18n._(job.season)
        const year = job.year
        return (
          <li key={job.id}>
            <article className="group relative overflow-hidden rounded-2xl border bg-card shadow-xs transition-shadow focus-within:ring-[3px] focus-within:ring-ring/50 hover:shadow-md">
              <CoverPicture image={job.background} alt="" eager={index === 0} />
              <div className="flex items-center justify-between gap-4 p-6">
                <div>
                  <h3 className="text-2xl font-semibold">
                    <a
                      href={job.url}
                      rel="noopener"
                      target="_blank"
                      className="outline-none after:absolute after:inset-0"
                    >
                      <Trans>
                        {season} {year}
                      </Trans>
                    </a>
                  </h3>
                  <p className="mt-1 text-sm text-muted-foreground">
                    <Trans>Berlin or Sunnyvale</Trans>
                  </p>
                </div>
                <span className="inline-flex items-center gap-1 text-sm font-medium text-primary group-hover:underline">
                  <Trans>Apply</Trans>
                  <ExternalLink aria-hidden className="size-4" />
                </span>
              </div>
            </article>
          </li>
        )
      })}
    </ul>
  )
}

export function InternshipPage() {
  const { t } = useLingui()
  const tracks = [
    {
      title: t`Research`,
      body: t`Train and evaluate embedding, reranker and reader models, and write up what you find, ideally as a paper.`,
    },
    {
      title: t`Engineering`,
      body: t`Work on the API behind every product on this site: inference, batching, crawling and the dashboard.`,
    },
    {
      title: t`Developer relations`,
      body: t`Write tutorials, benchmarks and example apps, and help developers succeed with search and RAG.`,
    },
  ]
  const steps = [
    t`Apply for a season with your CV and, if you have them, links to code or papers.`,
    t`A 30-minute call with the team you would join.`,
    t`A small take-home task or a paper discussion, depending on the track.`,
    t`A final conversation about the project you would work on. We answer within two weeks.`,
  ]
  return (
    <>
      <PageHeader
        eyebrow={<Trans>Internship</Trans>}
        title={<Trans>Spend a season building search foundations with us</Trans>}
        lead={
          <Trans>
            Research and engineering internships in Berlin and Sunnyvale. You work on real models with a mentor, on a
            project that ships.
          </Trans>
        }
      />
      <Section id="seasons" title={<Trans>Open seasons</Trans>}>
        <SeasonCards />
      </Section>
      <Section id="tracks" className="bg-muted/40" title={<Trans>What you will work on</Trans>}>
        <ul className="grid gap-4 md:grid-cols-3">
          {tracks.map((track) => (
            <li key={track.title} className="rounded-xl border bg-card p-5">
              <h3 className="font-semibold">{track.title}</h3>
              <p className="mt-2 text-sm text-muted-foreground">{track.body}</p>
            </li>
          ))}
        </ul>
      </Section>
      <Section id="process" title={<Trans>How to apply</Trans>}>
        <ol className="grid gap-4 md:grid-cols-4">
          {steps.map((step, i) => (
            <li key={step} className="rounded-xl border bg-card p-5">
              <span
                aria-hidden
                className="flex size-8 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
              >
                {i + 1}
              </span>
              <p className="mt-3 text-sm">{step}</p>
            </li>
          ))}
        </ol>
      </Section>
    </>
  )
}
