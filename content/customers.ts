import { msg } from '@lingui/core/macro'
import type { CustomerGroup } from './schemas'

/** Logos are generated wordmarks at /images/customers/<slug>.svg, named after the customer. */
const customers = (...names: string[]) =>
  names.map((name) => {
    const slug = name
      .toLowerCase()
      .replace(/&/g, 'and')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    return { slug, name, logo: `/images/customers/${slug}.svg` }
  })

export const customerGroups: CustomerGroup[] = [
  {
    id: 'technology',
    label: msg`Technology`,
    customers: customers('Northwind Systems', 'Quanta Grid', 'Helix Labs', 'Orbital Stack', 'Cobalt Cloud'),
  },
  {
    id: 'media',
    label: msg`Media`,
    customers: customers('Daily Lantern', 'Brightwave Media', 'Paper Crane Press', 'Signal & Noise'),
  },
  {
    id: 'finance-consulting',
    label: msg`Finance & consulting`,
    customers: customers('Meridian Capital', 'Ledgerline', 'Harbor & Finch', 'Keystone Partners', 'Amberly Advisory'),
  },
  {
    id: 'ecommerce-retail',
    label: msg`E-commerce & retail`,
    customers: customers('Basketful', 'Tidepool Market', 'Urban Loom', 'Parcelly', 'Crate & Kiln'),
  },
  {
    id: 'misc',
    label: msg`More industries`,
    customers: customers('Greenfield Logistics', 'Atlas Health', 'Civic Commons', 'Tern Travel'),
  },
  {
    id: 'llm-providers',
    label: msg`Language model providers`,
    customers: customers('Polyglot AI', 'Axiom Models', 'Sable Intelligence', 'Lumen Foundry'),
  },
  {
    id: 'universities',
    label: msg`Universities`,
    customers: customers(
      'Northbridge University',
      'Westmarch Institute of Technology',
      'Eastlake College',
      'University of Halden',
    ),
  },
]

export const allCustomers = customerGroups.flatMap((g) => g.customers)
