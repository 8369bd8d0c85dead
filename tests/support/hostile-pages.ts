/**
 * Pages built to make an HTML converter work hard, as an attack run served them to the reader (issue 26):
 * each is a real shape a hostile or broken site can serve, at the size that stalled the server before.
 */

const page = (title: string, body: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`

/** A table of `rows` rows under a heading row of `columns` cells (1,000 × 50: 509 KB). */
export function wideTable(rows = 1000, columns = 50): string {
  const head = `<tr>${Array.from({ length: columns }, (_, c) => `<th>Column ${c}</th>`).join('')}</tr>`
  const body = Array.from(
    { length: rows },
    (_, r) => `<tr>${Array.from({ length: columns }, (_, c) => `<td>${(r * columns + c) % 997}</td>`).join('')}</tr>`,
  ).join('\n')
  return page('A wide table', `<table><thead>${head}</thead><tbody>${body}</tbody></table>`)
}

/** `depth` `<div>`s nested in one another around one word (900,000: 9.9 MB). */
export function nestedDivs(depth: number): string {
  return page('Nested', `${'<div>'.repeat(depth)}deep${'</div>'.repeat(depth)}`)
}

/** A list of `count` links, each in its own item (40,000: 1.6 MB). */
export function manyLinks(count = 40_000): string {
  const items = Array.from({ length: count }, (_, i) => `<li><a href="/link/${i}">Link number ${i}</a></li>`)
  return page('Links', `<ul>${items.join('')}</ul>`)
}
