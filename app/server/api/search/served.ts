/** A search API's answer with what computed it and which of the request's options it did not apply. */
export interface Served<T> {
  answer: T
  /** The engine instance that computed it (`builtin`, `onnx:<folder>`, `upstream:<model>`). */
  engine: string
  /** Options (and unknown fields) the request gave that did not change the answer, in request order. */
  notApplied: string[]
}
