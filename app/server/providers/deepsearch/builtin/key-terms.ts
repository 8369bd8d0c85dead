import { termsOf } from '../../inference/builtin/terms'

/** Words that carry no subject of their own, in the language questions to this site are mostly asked in. */
const stopwords = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can
  could did do does doing down during each few for from further had has have having he her here hers how i if in into is it
  its itself just let me more most my no nor not now of off on once only or other our out over own same she should so some
  such than that the their them then there these they this those through to too under until up very was we were what when
  where which while who whom why will with would you your yours tell show give find list explain describe please know
  much many one two use used using does`.split(/\s+/),
)

/** The terms of a question that name what it is about, in order, each once. */
export function keyTermsOf(question: string): string[] {
  const terms = termsOf(question).filter((term) => !stopwords.has(term) && (term.length > 1 || /\p{Lo}/u.test(term)))
  return [...new Set(terms)]
}

/** The key terms `texts` do not mention. */
export function uncovered(keyTerms: string[], texts: string[]): string[] {
  const seen = new Set(texts.flatMap((text) => termsOf(text)))
  return keyTerms.filter((term) => !seen.has(term))
}
