/**
 * The document's HTML with every open shadow root's content written inside its host (before the host's own
 * children, which the shadow content's slots would show), so text a web component keeps in its shadow tree
 * is read like the rest. Runs in the page: it must not refer to anything outside itself.
 */
export function serializeWithShadowRoots(): string {
  const voids = new Set([
    'area',
    'base',
    'br',
    'col',
    'embed',
    'hr',
    'img',
    'input',
    'link',
    'meta',
    'source',
    'track',
    'wbr',
  ])
  const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const escapeAttribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;')
  const out: string[] = []
  // Iterative, so a deeply nested page cannot overflow the stack.
  type Step = { node: Node } | { close: string }
  const stack: Step[] = [{ node: document.documentElement }]
  while (stack.length) {
    const step = stack.pop()!
    if ('close' in step) {
      out.push(step.close)
      continue
    }
    const { node } = step
    if (node.nodeType === Node.TEXT_NODE) {
      const parent = node.parentNode?.nodeName
      out.push(parent === 'SCRIPT' || parent === 'STYLE' ? (node.nodeValue ?? '') : escapeText(node.nodeValue ?? ''))
      continue
    }
    if (node.nodeType !== Node.ELEMENT_NODE) continue
    const element = node as Element
    const tag = element.localName
    let open = `<${tag}`
    for (const attribute of Array.from(element.attributes))
      open += ` ${attribute.name}="${escapeAttribute(attribute.value)}"`
    out.push(`${open}>`)
    if (voids.has(tag)) continue
    stack.push({ close: `</${tag}>` })
    const children: Node[] = [
      ...(element.shadowRoot ? Array.from(element.shadowRoot.childNodes) : []),
      ...Array.from(tag === 'template' ? (element as HTMLTemplateElement).content.childNodes : element.childNodes),
    ]
    for (let i = children.length - 1; i >= 0; i--) stack.push({ node: children[i] })
  }
  return `<!DOCTYPE html>${out.join('')}`
}
