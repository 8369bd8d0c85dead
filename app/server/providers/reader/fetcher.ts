import type { FetchedPage, FetchLimits, Outgoing } from './fetch-types'

export type { FetchedPage, FetchLimits, Outgoing }

/**
 * Fetches a page a stranger named, as the reader must: every host resolved and checked before connecting
 * (and connected to at the address checked), every redirect checked again. It needs raw sockets and DNS,
 * so the implementation (`./node-fetch.ts`) is Node-only; an edge build routes the reader to a Node backend.
 */
export type PageFetcher = (url: URL, limits: FetchLimits, outgoing?: Outgoing) => Promise<FetchedPage>

let nodeFetcher: Promise<PageFetcher> | undefined

/** The Node implementation, loaded on first use so nothing else pulls node:http and node:dns in. */
export function pageFetcher(): Promise<PageFetcher> {
  return (nodeFetcher ??= import('./node-fetch').then((m) => m.fetchPage))
}
