import { Trans, useLingui } from '@lingui/react/macro'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useState, type FormEvent } from 'react'
import { Button } from '~/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '~/components/ui/card'
import { Input } from '~/components/ui/input'
import { FormField, type FieldProps } from '~/components/form/form-field'
import { Skeleton } from '~/components/ui/skeleton'
import { Textarea } from '~/components/ui/textarea'
import {
  billingLimits,
  billingProblems,
  type BillingDetails,
  type BillingField,
  type BillingProblem,
} from '~/contracts/billing-details'
import { notify } from '../notify'
import { billingDetailsMutation, billingDetailsQuery } from './queries'
import { HydratedForm } from '~/components/form/hydrated-form'

function useProblemText(): (field: BillingField, problem: BillingProblem) => string {
  const { t } = useLingui()
  return (field, problem) => {
    if (problem === 'missing') return field === 'name' ? t`Enter the name to bill.` : t`Enter the postal address.`
    if (problem === 'too_long')
      return field === 'name'
        ? t`The name may be at most ${billingLimits.name} characters long.`
        : field === 'address'
          ? t`The address may be at most ${billingLimits.address} characters long.`
          : t`The tax ID may be at most ${billingLimits.taxId} characters long.`
    if (problem === 'too_many_lines') return t`The address may have at most ${billingLimits.addressLines} lines.`
    if (problem === 'not_printable')
      return t`Use Latin letters, digits and punctuation: the invoice cannot print other scripts.`
    return t`A tax ID holds letters, digits, spaces, dots, dashes and slashes only.`
  }
}

/** The name, address and tax ID printed on this key's invoices. */
export function BillingDetailsCard({ apiKey }: { apiKey: string }) {
  const details = useQuery(billingDetailsQuery(apiKey))
  return (
    <Card aria-labelledby="billing-details-title" data-testid="billing-details">
      <CardHeader>
        <CardTitle id="billing-details-title">
          <Trans>Billing details</Trans>
        </CardTitle>
        <CardDescription>
          <Trans>Printed on your invoices. An invoice keeps the details it was first downloaded with.</Trans>
        </CardDescription>
      </CardHeader>
      {details.isPending ? (
        <CardContent>
          <Skeleton className="h-40 w-full rounded-md" />
        </CardContent>
      ) : details.isError ? (
        <CardContent>
          <p role="alert" className="text-sm text-muted-foreground">
            <Trans>Billing details could not be loaded ({details.error.message}).</Trans>
          </p>
        </CardContent>
      ) : (
        <DetailsForm apiKey={apiKey} saved={details.data} />
      )}
    </Card>
  )
}

function DetailsForm({ apiKey, saved }: { apiKey: string; saved: BillingDetails | null }) {
  const { t } = useLingui()
  const describe = useProblemText()
  const queryClient = useQueryClient()
  const save = useMutation(billingDetailsMutation())
  const [entry, setEntry] = useState({
    name: saved?.name ?? '',
    address: saved?.address ?? '',
    tax_id: saved?.tax_id ?? '',
  })
  const [problems, setProblems] = useState<Partial<Record<BillingField, string>>>({})
  const [failure, setFailure] = useState<string>()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const found = billingProblems(entry)
    setProblems(Object.fromEntries(found.map(({ field, problem }) => [field, describe(field, problem)])))
    setFailure(undefined)
    if (found.length > 0) return
    save.mutate(
      { apiKey, details: { ...entry, tax_id: entry.tax_id.trim() || null } },
      {
        onSuccess: (answer) => {
          queryClient.setQueryData(billingDetailsQuery(apiKey).queryKey, answer.details)
          notify.success(t`Billing details saved.`)
        },
        onError: (error) => setFailure(t`The details could not be saved (${error.message}).`),
      },
    )
  }

  const control = (name: BillingField, props: FieldProps) => ({
    ...props,
    value: entry[name],
    onChange: (e: { target: { value: string } }) => setEntry({ ...entry, [name]: e.target.value }),
  })

  return (
    <HydratedForm onSubmit={submit} noValidate className="contents">
      <CardContent className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label={<Trans>Name or company</Trans>} error={problems.name}>
          {(props) => <Input autoComplete="organization" data-testid="billing-name" {...control('name', props)} />}
        </FormField>
        <FormField label={<Trans>Tax ID (optional)</Trans>} error={problems.tax_id}>
          {(props) => <Input autoComplete="off" data-testid="billing-tax-id" {...control('tax_id', props)} />}
        </FormField>
        <FormField label={<Trans>Postal address</Trans>} error={problems.address} className="sm:col-span-2">
          {(props) => (
            <Textarea
              autoComplete="street-address"
              rows={4}
              data-testid="billing-address"
              {...control('address', props)}
            />
          )}
        </FormField>
        {failure && (
          <p role="alert" className="text-sm text-destructive sm:col-span-2">
            {failure}
          </p>
        )}
      </CardContent>
      <CardFooter>
        <Button type="submit" disabled={save.isPending} data-testid="save-billing-details">
          <Trans>Save billing details</Trans>
        </Button>
      </CardFooter>
    </HydratedForm>
  )
}
