/**
 * pdf.js, through unpdf: bundled on its own (`./pdfjs.ts?thread`, 1.7 MB) and evaluated by ./pdf.ts in a
 * converter with its first PDF, so that a converter that reads only HTML never parses it.
 */
export { getDocumentProxy } from 'unpdf'
