/** Pages the reader's tests and benchmarks read from loopback: what they hold is what the tests expect back. */

const paragraph = (i: number) =>
  `<p>Paragraph ${i} explains how a search pipeline retrieves candidates, <a href="/docs/${i}">reranks them</a> and keeps the best, with <em>care</em> for latency, recall and cost.</p>`

/** An article with a navigation bar, a footer, relative links and images, a table and its metadata. */
export function articlePage(options: { paragraphs?: number; title?: string } = {}): string {
  const body = Array.from({ length: options.paragraphs ?? 12 }, (_, i) => paragraph(i + 1)).join('\n')
  return `<!doctype html>
<html lang="en"><head>
<meta charset="utf-8">
<title>${options.title ?? 'Rerankers in practice'}</title>
<meta name="description" content="How a reranker lifts search precision.">
<meta property="article:published_time" content="2025-03-04T05:06:07Z">
<script>window.tracking = 'SCRIPT-MARKER'</script>
<style>body { color: red }</style>
</head><body>
<nav class="menu"><a href="/">NAV-MARKER home</a> <a href="/about">About</a></nav>
<main><article>
<h1>Rerankers in practice</h1>
<p class="lead">A first-stage search is fast but rough; a <strong>reranker</strong> reads each candidate with the query and puts the best first.</p>
<img src="/images/pipeline.png" alt="A two-stage pipeline">
${body}
<h2>Numbers</h2>
<table><thead><tr><th>Model</th><th>nDCG@10</th></tr></thead><tbody><tr><td>BM25</td><td>42.1</td></tr><tr><td>Reranker</td><td>61.9</td></tr></tbody></table>
<p>Read more in <a href="https://example.org/paper">the paper</a> or <a href="javascript:alert(1)">nowhere</a>.</p>
<aside class="ad">AD-MARKER buy now</aside>
</article></main>
<footer>FOOTER-MARKER © Example</footer>
</body></html>`
}

/**
 * A page whose readable "article" is a small part: Readability finds one short paragraph, while the page's
 * text is a long list, so the reader must answer the whole page.
 */
export function listPage(): string {
  const items = Array.from(
    { length: 60 },
    (_, i) =>
      `<li>LIST-ITEM ${i}: a release note line that describes one change to the product in a full sentence.</li>`,
  ).join('\n')
  return `<!doctype html><html><head><title>Release notes</title></head><body>
<div class="intro"><p>INTRO-MARKER These are the release notes, with every change listed below, one per line, newest first.</p></div>
<ul>${items}</ul>
</body></html>`
}

/** About 100 KB of article (just over), for the reader's benchmark. */
export function hundredKilobyteArticle(): string {
  const base = articlePage({ paragraphs: 0 }).length
  const perParagraph = articlePage({ paragraphs: 1 }).length - base
  return articlePage({ paragraphs: Math.ceil((100_000 - base) / perParagraph) + 1 })
}
