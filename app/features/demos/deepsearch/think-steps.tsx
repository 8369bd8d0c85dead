import { FileText, Lightbulb, Search } from 'lucide-react'
import type { ThinkStep } from '../lib/deepsearch-stream'

/** The agent's reasoning, one line per step: searches and pages read marked as such, pages linked. */
export function ThinkSteps({ steps }: { steps: ThinkStep[] }) {
  return (
    <ol
      data-testid="think-steps"
      className="flex max-h-48 flex-col gap-1.5 overflow-auto text-xs text-muted-foreground"
    >
      {steps.map((step, i) => {
        const Icon = step.query ? Search : step.url ? FileText : Lightbulb
        return (
          <li key={i} data-kind={step.query ? 'search' : step.url ? 'read' : 'think'} className="flex min-w-0 gap-2">
            <Icon aria-hidden className="mt-0.5 size-3.5 shrink-0" />
            <span className="min-w-0 break-words">
              {step.text}
              {step.url && (
                <>
                  {' '}
                  <a
                    href={step.url}
                    rel="noreferrer"
                    className="break-all text-primary underline-offset-4 hover:underline"
                  >
                    {step.url}
                  </a>
                </>
              )}
            </span>
          </li>
        )
      })}
    </ol>
  )
}
