import { useLingui } from '@lingui/react/macro'
import { answerParts } from '../lib/deepsearch-stream'

/** The answer's text with each `[^n]` marker as a superscript link to source n of the list `idPrefix` names. */
export function CitedAnswer({ answer, idPrefix, className }: { answer: string; idPrefix: string; className?: string }) {
  const { t } = useLingui()
  return (
    <p data-testid="cited-answer" className={className}>
      {answerParts(answer).map((part, i) =>
        'cite' in part ? (
          <sup key={i}>
            <a
              href={`#${idPrefix}-${part.cite}`}
              aria-label={t`Source ${part.cite}`}
              className="px-0.5 font-medium text-primary no-underline hover:underline"
            >
              {part.cite}
            </a>
          </sup>
        ) : (
          <span key={i} className="whitespace-pre-line">
            {part.text}
          </span>
        ),
      )}
    </p>
  )
}
