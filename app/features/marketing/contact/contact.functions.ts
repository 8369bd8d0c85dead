import { createServerFn } from '@tanstack/react-start'
import { contactLeadInput } from '~/contracts/contact'
import { submitLead } from '~/server/api/contact'
import { validatorOf } from '~/server/http/input'
import { serverFnCaller } from '~/server/http/server-fn-caller'

/** Contact sales from the website. Invalid input never gets to the handler: the validator refuses it first. */
export const submitContactLead = createServerFn({ method: 'POST' })
  .validator(validatorOf(contactLeadInput))
  .handler(({ data }) => submitLead(serverFnCaller(), data))
