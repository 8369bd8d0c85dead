import { useLingui } from '@lingui/react/macro'
import type { ContactField, ContactIssue } from '~/contracts/contact'

/** Readable, translated sentences for the schema's issue codes. */
export function useIssueText() {
  const { t } = useLingui()
  return (field: ContactField, issue: ContactIssue | undefined): string | undefined => {
    if (!issue) return undefined
    if (issue === 'too_long') return t`This is too long. Please shorten it.`
    if (issue === 'too_short') return t`Please write at least 20 characters, so we can prepare for the conversation.`
    if (issue === 'single_line') return t`Please write this on one line, without tabs or line breaks.`
    if (issue === 'invalid_email') return t`Please enter a valid e-mail address, like name@company.com.`
    const required: Record<ContactField, string> = {
      name: t`Please enter your name.`,
      email: t`Please enter your work e-mail address.`,
      company: t`Please enter your company.`,
      message: t`Please tell us how we can help.`,
    }
    return required[field]
  }
}
