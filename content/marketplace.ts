import type { MarketplaceEntry } from './schemas'

export const marketplaceEntries: MarketplaceEntry[] = [
  {
    id: 'aws',
    label: 'AWS Marketplace',
    icon: '/images/marketplace/aws.svg',
    link: 'https://aws.amazon.com/marketplace/seller-profile?id=lodestar-ai',
    products: ['embedding', 'reranker'],
    disabled: false,
  },
  {
    id: 'azure',
    label: 'Microsoft Azure Marketplace',
    icon: '/images/marketplace/azure.svg',
    link: 'https://azuremarketplace.microsoft.com/marketplace/apps?search=lodestar-ai',
    products: ['embedding', 'reranker'],
    disabled: false,
  },
  {
    id: 'google-cloud',
    label: 'Google Cloud Marketplace',
    icon: '/images/marketplace/google-cloud.svg',
    link: 'https://console.cloud.google.com/marketplace/browse?q=lodestar-ai',
    products: ['embedding'],
    disabled: true,
  },
]
