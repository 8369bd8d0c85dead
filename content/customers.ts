import { msg } from '@lingui/core/macro'
import type { CustomerGroup } from './schemas'

/**
 * Logos are generated wordmarks at /images/customers/<slug>.svg, named after the customer. Their size is the
 * one content/tools/generate_images.py draws (40 px tall, wider for longer names): pages draw each logo at its
 * own aspect ratio and reserve its box before it loads. The content test checks it against the files.
 */
const customers = (...names: string[]) =>
  names.map((name) => {
    const slug = name
      .toLowerCase()
      .replace(/&/g, 'and')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
    return { slug, name, logo: `/images/customers/${slug}.svg`, width: 48 + name.length * 11, height: 40 }
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
