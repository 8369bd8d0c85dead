/**
 * Fixes to third-party code that converts untrusted pages, applied where it runs (the reader's conversion
 * threads, bundled by ./vite-thread-source.ts). Each replaces exact text; text that is not found stops the
 * build, so an upgrade that changes the code is looked at again rather than silently left unfixed.
 */
export interface SourcePatch {
  /** The package patched: a bundle with any of its modules and none that `module` matches fails. */
  package: string
  /** Matches the path of the module to patch (every module it matches must contain `find`). */
  module: RegExp
  /** Why, for the reader of a failed build. */
  why: string
  find: string
  replace: string
}

/** unpdf's bundled, minified pdf.js: its patches name its code as minified. */
const pdfjs = /[\\/]unpdf[\\/]dist[\\/]pdfjs\.mjs$/
/** pdf.js reporting `bytes` it is about to inflate (app/server/providers/reader/convert/pdf-inflation.ts). */
const inflating = (bytes: string) => `globalThis[Symbol.for("reader.pdf-inflating")]?.(${bytes})`

export const threadPatches: SourcePatch[] = [
  {
    // Every node (elements, attributes, text) got a Map of listeners in a WeakMap as it was built: most of a
    // large page's conversion time went to building and collecting them (3 s of 5 for 40,000 links), and the
    // reader never listens to events. The map is made when a listener is first added.
    package: 'linkedom',
    module: /[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/,
    why: 'linkedom: a listener map per node, made whether or not anything listens',
    find: `  constructor() {
    wm.set(this, new Map);
  }`,
    replace: `  constructor() {}`,
  },
  {
    package: 'linkedom',
    module: /[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/,
    why: 'linkedom: the listener map is made on the first addEventListener',
    find: `  addEventListener(type, listener, options) {
    const map = wm.get(this);`,
    replace: `  addEventListener(type, listener, options) {
    let map = wm.get(this);
    if (!map) wm.set(this, (map = new Map));`,
  },
  {
    package: 'linkedom',
    module: /[\\/]linkedom[\\/]esm[\\/]interface[\\/]event-target\.js$/,
    why: 'linkedom: removing a listener from a node that never had one',
    find: `    const map = wm.get(this);
    if (map.has(type)) {`,
    replace: `    const map = wm.get(this);
    if (map && map.has(type)) {`,
  },
  {
    // Every nodeName and tagName read upper-cased the element's name anew (a string allocated per read, and
    // converting reads them for every rule it tries): upper-cased once per distinct name instead.
    package: 'linkedom',
    module: /[\\/]linkedom[\\/]esm[\\/]shared[\\/]utils\.js$/,
    why: 'linkedom: nodeName upper-cased on every read',
    find: `export const localCase = ({localName, ownerDocument}) => {
  return ownerDocument[MIME].ignoreCase ? localName.toUpperCase() : localName;
};`,
    replace: `const upperCased = new Map();
export const localCase = ({localName, ownerDocument}) => {
  if (!ownerDocument[MIME].ignoreCase) return localName;
  let upper = upperCased.get(localName);
  if (upper === undefined) {
    upper = localName.toUpperCase();
    // A page may invent any number of names: only so many are kept.
    if (upperCased.size < 4096) upperCased.set(localName, upper);
  }
  return upper;
};`,
  },
  {
    // Whether a node is blank was decided from its whole text, built as one string for every node converted:
    // the text under the page's outer blocks was built again for each of them. Now its text nodes are read
    // until one is not white space (the same answer: the text is all white space when each piece is).
    package: 'turndown',
    module: /[\\/]turndown[\\/]lib[\\/]turndown\.(es|cjs)\.js$/,
    why: 'turndown: isBlank builds the whole text of every node',
    find: `function isBlank(node) {
  return !isVoid(node) && !isMeaningfulWhenBlank(node) && /^\\s*$/i.test(node.textContent) && !hasVoid(node) && !hasMeaningfulWhenBlank(node);
}`,
    replace: `function isBlank(node) {
  return !isVoid(node) && !isMeaningfulWhenBlank(node) && isWhiteSpaceOnly(node) && !hasVoid(node) && !hasMeaningfulWhenBlank(node);
}
function isWhiteSpaceOnly(node) {
  if (node.nodeType !== 1) return /^\\s*$/i.test(node.textContent);
  var current = node.firstChild;
  while (current) {
    if ((current.nodeType === 3 || current.nodeType === 4) && !/^\\s*$/i.test(current.nodeValue)) return false;
    if (current.firstChild) current = current.firstChild;
    else {
      while (current !== node && !current.nextSibling) current = current.parentNode;
      current = current === node ? null : current.nextSibling;
    }
  }
  return true;
}`,
  },
  {
    // The text of every node Readability looked at was built to measure a possible byline, before the cheap
    // tests that nearly every node fails: measured only for the nodes that pass them.
    package: '@mozilla/readability',
    module: /[\\/]@mozilla[\\/]readability[\\/]Readability\.js$/,
    why: 'Readability: the text of every node built to test it as a byline',
    find: `    var bylineLength = node.textContent.trim().length;

    return (
      (rel === "author" ||
        (itemprop && itemprop.includes("author")) ||
        this.REGEXPS.byline.test(matchString)) &&
      !!bylineLength &&
      bylineLength < 100
    );`,
    replace: `    if (
      !(rel === "author" ||
        (itemprop && itemprop.includes("author")) ||
        this.REGEXPS.byline.test(matchString))
    )
      return false;
    var bylineLength = node.textContent.trim().length;
    return !!bylineLength && bylineLength < 100;`,
  },
  {
    // `X+$` is tried from every position of a run of X that does not reach the end: quadratic in the run
    // (100,000 spaces in a <pre> before its last word: 22 s). trimEnd removes the same characters (\s).
    package: 'turndown',
    module: /[\\/]turndown[\\/]lib[\\/]turndown\.(es|cjs)\.js$/,
    why: 'turndown: trailing white space trimmed in quadratic time',
    find: `.replace(/[\\t\\r\\n\\s]+$/, '')`,
    replace: `.trimEnd()`,
  },
  {
    // Every parsed node was passed to one call as an argument of its own (`replaceChildren(...nodes)`), which
    // overflows the stack past about 120,000: Readability resets the page's body this way between attempts,
    // so a flat page of 180,000 headings was refused as nesting too deeply. Moved over one at a time instead.
    package: 'linkedom',
    module: /[\\/]linkedom[\\/]esm[\\/]mixin[\\/]inner-html\.js$/,
    why: 'linkedom: innerHTML spreads every parsed node into one call',
    find: `  node.replaceChildren(...childNodes.map(setOwnerDocument, ownerDocument));`,
    replace: `  node.replaceChildren();
  for (const child of childNodes.map(setOwnerDocument, ownerDocument)) node.appendChild(child);`,
  },
  // pdf.js (unpdf's build) inflates a PDF's streams with no bound of its own: a 300 KB content stream of zeros
  // became 300 MiB, outside the JavaScript heap the converter's memory limit bounds. Each place it decodes
  // into memory reports the bytes before it holds them, to the reader's count, which throws past its limit.
  {
    // Every decoder built on DecodeStream (Flate, LZW, RunLength, ASCII85 and hex, predictors, CCITT) grows
    // its buffer here as it decodes.
    package: 'unpdf',
    module: pdfjs,
    why: 'pdf.js: decoded streams grow without a bound',
    find: 'ensureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;let n=this.minBufferLength;for(;n<e;)n*=2;let r=new Uint8Array(n);',
    replace: `ensureBuffer(e){let t=this.buffer;if(e<=t.byteLength)return t;let n=this.minBufferLength;for(;n<e;)n*=2;${inflating('n-t.byteLength')};let r=new Uint8Array(n);`,
  },
  {
    // Flate and Brotli streams are first inflated by the runtime's DecompressionStream, chunk by chunk.
    package: 'unpdf',
    module: pdfjs,
    why: 'pdf.js: streams inflated by DecompressionStream without a bound',
    find: 'for await(let e of n)a.push(e),o+=e.byteLength;',
    replace: `for await(let e of n)${inflating('e.byteLength')},a.push(e),o+=e.byteLength;`,
  },
  {
    // Brotli where DecompressionStream cannot: pdf.js's own decoder, 16 KiB at a time.
    package: 'unpdf',
    module: pdfjs,
    why: 'pdf.js: Brotli streams decoded without a bound',
    find: 'decompress(n),r+=n.outputUsed,n.outputUsed<16384)break}',
    replace: `decompress(n),r+=n.outputUsed,${inflating('n.outputUsed')},n.outputUsed<16384)break}`,
  },
]
