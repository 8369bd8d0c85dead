import { Trans } from '@lingui/react/macro'
import { papers } from '#content/papers'
import { PaperCard } from '../paper-card'
import { Section } from '~/components/marketing/section'

/** All papers, newest first; the landing page links here as "All papers". */
export function ResearchSection() {
  return (
    <Section
      id="research"
      className="bg-muted/40"
      title={<Trans>Research</Trans>}
      intro={<Trans>Every model comes with a paper. Titles and summaries are in English, as the papers are.</Trans>}
    >
      <ul className="grid gap-4 md:grid-cols-2">
        {papers.map((paper) => (
          <li key={paper.id}>
            <PaperCard paper={paper} />
          </li>
        ))}
      </ul>
    </Section>
  )
}
