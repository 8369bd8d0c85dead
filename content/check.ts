import * as v from 'valibot'
import { customerGroups } from './customers'
import { docPages, docsProblems } from './docs'
import { docsIndex } from './docs-index'
import { jobSeasons } from './jobs'
import { marketplaceEntries } from './marketplace'
import { models } from './models'
import { posts } from './news'
import { offices } from './offices'
import { ossProjects } from './oss'
import { papers } from './papers'
import { legacyProducts, products } from './products'
import * as s from './schemas'
import { socialLinks } from './socials'

/** Every collection of the site's content with the schema it must satisfy. */
const collections: Record<string, [v.GenericSchema, unknown]> = {
  products: [v.array(s.product), products],
  legacyProducts: [v.array(s.legacyProduct), legacyProducts],
  models: [v.array(s.model), models],
  papers: [v.array(s.paper), papers],
  customerGroups: [v.array(s.customerGroup), customerGroups],
  marketplaceEntries: [v.array(s.marketplaceEntry), marketplaceEntries],
  jobSeasons: [v.array(s.jobSeason), jobSeasons],
  offices: [v.array(s.office), offices],
  socialLinks: [v.array(s.socialLink), socialLinks],
  ossProjects: [v.array(s.ossProject), ossProjects],
  posts: [v.array(s.newsPost), posts],
  docsIndex: [v.array(s.docsSection), docsIndex],
  docPages: [v.array(s.docPage), docPages],
}

/** The problems of one collection, each as `collection.path message`. */
export function contentProblems(name: string, schema: v.GenericSchema, data: unknown): string[] {
  const result = v.safeParse(schema, data)
  return result.success ? [] : result.issues.map((issue) => `${name}.${v.getDotPath(issue) ?? '?'} ${issue.message}`)
}

/**
 * Parses all content with its schemas. The server runs it when it starts (and so does the build, which
 * prerenders through the server), the content test runs it too: a bad entry stops both with its path.
 * The browser never imports this file, so it never downloads the validators.
 */
export function checkContent(): void {
  const problems = [
    ...Object.entries(collections).flatMap(([name, [schema, data]]) => contentProblems(name, schema, data)),
    ...docsProblems(),
  ]
  if (problems.length > 0) throw new Error(`Invalid content: ${problems.join('; ')}`)
}
