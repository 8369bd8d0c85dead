import { Trans, useLingui } from '@lingui/react/macro'
import { CircleCheck, Loader2 } from 'lucide-react'
import { useRef, useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Textarea } from '~/components/ui/textarea'
import { useCaptcha } from '~/lib/captcha/use-captcha'
import { useLocale } from '~/lib/use-locale'
import { brand } from '#config'
import { contactFieldErrors, type ContactField } from '~/contracts/contact'
import { submitContactLead } from './contact.functions'
import { FormField } from '~/components/form/form-field'
import { useIssueText } from './use-issue-text'

const fields: ContactField[] = ['name', 'email', 'company', 'message']
const empty: Record<ContactField, string> = { name: '', email: '', company: '', message: '' }

export function ContactForm() {
  const { t } = useLingui()
  const locale = useLocale()
  const captcha = useCaptcha('contact_sales')
  const issueText = useIssueText()
  const [values, setValues] = useState(empty)
  const [touched, setTouched] = useState<Partial<Record<ContactField, boolean>>>({})
  const [status, setStatus] = useState<'idle' | 'sending' | 'sent'>('idle')
  const [formError, setFormError] = useState<string>()
  const form = useRef<HTMLFormElement>(null)
  const done = useRef<HTMLDivElement>(null)

  const errors = contactFieldErrors(values)
  const errorOf = (field: ContactField) => (touched[field] ? issueText(field, errors[field]) : undefined)
  const bind = (field: ContactField) => ({
    name: field,
    value: values[field],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value })),
    onBlur: () => setTouched((s) => ({ ...s, [field]: true })),
  })
  // Start the proof of work as soon as the visitor engages, so it is usually done by the time they send.
  const warmUp = () => void captcha.ensure().catch(() => {})

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault()
    setTouched({ name: true, email: true, company: true, message: true })
    setFormError(undefined)
    const invalid = fields.find((f) => errors[f])
    if (invalid) {
      form.current?.querySelector<HTMLElement>(`[name="${invalid}"]`)?.focus()
      return
    }
    setStatus('sending')
    try {
      const result = await submitContactLead({ data: { ...values, locale, captcha: await captcha.ensure() } })
      captcha.reset()
      if (result.ok) {
        setStatus('sent')
        requestAnimationFrame(() => done.current?.focus())
        return
      }
      setFormError(
        result.reason === 'rate_limited'
          ? t`You have sent several requests already. Please try again in an hour.`
          : t`We could not verify that you are human. Please send the form again.`,
      )
    } catch {
      captcha.reset()
      setFormError(t`Sending failed. Please try again, or write to ${brand.salesEmail}.`)
    }
    setStatus('idle')
  }

  if (status === 'sent') {
    return (
      <div
        ref={done}
        tabIndex={-1}
        role="status"
        className="flex flex-col items-start gap-3 rounded-xl border bg-card p-8 outline-none"
      >
        <CircleCheck aria-hidden className="size-8 text-success" />
        <h2 className="text-xl font-semibold">
          <Trans>Thank you, we got your message</Trans>
        </h2>
        <p className="text-muted-foreground">
          <Trans>Someone from our sales team will reply to {values.email} within one business day.</Trans>
        </p>
      </div>
    )
  }

  return (
    // In view, a prerendered page starts its client runtime at once, so nothing typed before hydration is lost.
    <form
      ref={form}
      data-needs-runtime
      noValidate
      onSubmit={onSubmit}
      onFocus={warmUp}
      className="flex flex-col gap-5 rounded-xl border bg-card p-6 shadow-xs sm:p-8"
    >
      <h2 className="text-xl font-semibold">
        <Trans>Tell us about your project</Trans>
      </h2>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="contact-name" label={<Trans>Name</Trans>} error={errorOf('name')}>
          {(a11y) => <Input {...a11y} {...bind('name')} autoComplete="name" required />}
        </FormField>
        <FormField id="contact-email" label={<Trans>Work e-mail</Trans>} error={errorOf('email')}>
          {(a11y) => (
            <Input {...a11y} {...bind('email')} type="email" autoComplete="email" inputMode="email" required />
          )}
        </FormField>
      </div>
      <FormField id="contact-company" label={<Trans>Company</Trans>} error={errorOf('company')}>
        {(a11y) => <Input {...a11y} {...bind('company')} autoComplete="organization" required />}
      </FormField>
      <FormField
        id="contact-message"
        label={<Trans>How can we help?</Trans>}
        hint={<Trans>Expected volume, languages, deployment needs: anything that helps us prepare.</Trans>}
        error={errorOf('message')}
      >
        {(a11y) => <Textarea {...a11y} {...bind('message')} rows={6} required />}
      </FormField>
      {formError && (
        <p
          role="alert"
          className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm font-medium text-destructive"
        >
          {formError}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-4">
        <Button type="submit" size="lg" disabled={status === 'sending'}>
          {status === 'sending' && <Loader2 aria-hidden className="animate-spin" />}
          {status === 'sending' ? <Trans>Sending…</Trans> : <Trans>Send message</Trans>}
        </Button>
        <p className="text-xs text-muted-foreground" aria-live="polite">
          {captcha.state === 'loading' && <Trans>Checking that you are human, in your browser…</Trans>}
          {captcha.state === 'loaded' && <Trans>Verified. No puzzles, no tracking.</Trans>}
          {captcha.state === 'unsupported' && (
            <Trans>Your browser cannot run our spam check. Please write to {brand.salesEmail}.</Trans>
          )}
        </p>
      </div>
    </form>
  )
}
