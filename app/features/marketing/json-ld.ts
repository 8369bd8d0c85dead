import { offices } from '#content/offices'
import type { NewsPost, Paper } from '#content/schemas'
import { socialLinks } from '#content/socials'
import { brand } from '#config'
import { isoDate } from '~/lib/dates'

const absolute = (baseUrl: string, path: string) => new URL(path, baseUrl).toString()

/** schema.org Organization for the landing page. */
export function organizationJsonLd(baseUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: brand.name,
    legalName: brand.legalName,
    url: absolute(baseUrl, '/'),
    logo: absolute(baseUrl, brand.logo),
    email: brand.supportEmail,
    sameAs: socialLinks.flatMap((s) => (s.kind === 'link' && s.link.startsWith('https://') ? [s.link] : [])),
    address: offices.map((office) => ({
      '@type': 'PostalAddress',
      streetAddress: office.address[1],
      addressLocality: office.address[2],
      addressCountry: office.address[office.address.length - 1],
    })),
    contactPoint: [{ '@type': 'ContactPoint', contactType: 'sales', email: brand.salesEmail }],
  }
}

function author() {
  return { '@type': 'Organization', name: brand.name }
}

/** schema.org ScholarlyArticle for a research paper. */
export function paperJsonLd(paper: Paper, baseUrl: string) {
  return {
    '@context': 'https://schema.org',
    '@type': 'ScholarlyArticle',
    headline: paper.title,
    name: paper.title,
    abstract: paper.summary,
    datePublished: isoDate(paper.date),
    url: paper.link,
    sameAs: paper.link,
    image: absolute(baseUrl, paper.paperImage),
    inLanguage: 'en',
    author: author(),
    ...(paper.conference ? { publication: { '@type': 'PublicationEvent', name: paper.conference } } : {}),
  }
}

/** schema.org NewsArticle for a news post. */
export function newsArticleJsonLd(
  post: Pick<NewsPost, 'title' | 'excerpt' | 'date' | 'author' | 'cover' | 'slug'>,
  url: string,
  baseUrl: string,
) {
  return {
    '@context': 'https://schema.org',
    '@type': 'NewsArticle',
    headline: post.title,
    description: post.excerpt,
    datePublished: isoDate(post.date),
    inLanguage: 'en',
    mainEntityOfPage: url,
    image: [absolute(baseUrl, post.cover.webp), absolute(baseUrl, post.cover.src)],
    author: { '@type': 'Person', name: post.author },
    publisher: {
      '@type': 'Organization',
      name: brand.name,
      logo: { '@type': 'ImageObject', url: absolute(baseUrl, brand.logo) },
    },
  }
}
