/**
 * Classification over an embedding engine's unit vectors, as pure computation (the API layer embeds the
 * texts, checks the limits and keeps the weights). Zero-shot: a softmax over the cosine similarity of each
 * text to each label's vector. Trained: multinomial logistic regression on the vectors, trained by
 * full-batch gradient descent with momentum and L2 regularisation, continued from earlier weights when given.
 */
import { checkWeights, type ClassifierWeights } from './classifier-weights'

export type { ClassifierWeights } from './classifier-weights'
export { decodeWeights, encodeWeights } from './classifier-weights'

/**
 * Softmax temperature of zero-shot scores. Cosines of unrelated and related texts differ by tenths, so
 * they are divided by 0.05 (CLIP's learned logit scale, 1/100, is sharper still): a label 0.1 closer than
 * another gets e² ≈ 7 times its probability.
 */
export const ZERO_SHOT_TEMPERATURE = 0.05

/**
 * Step size of gradient descent for unit-length inputs. The loss's curvature is at most ½·(‖x‖² + 1) (the 1
 * for the bias), so 1 for unit vectors; with heavy-ball momentum β a step below 2(1 + β) / curvature is
 * stable, and 1.9 stays well inside it while learning in a few passes. Longer inputs get a smaller step.
 */
export const LEARNING_RATE = 1.9
/** Heavy-ball momentum: consistent gradient directions (the usual case here) add up to larger steps. */
export const MOMENTUM = 0.9
/** L2 penalty λ/2 · ‖W‖² (bias excluded): keeps weights finite when classes separate perfectly. */
export const L2_PENALTY = 1e-4

export interface TrainingExample {
  vector: Float32Array
  label: string
}

export interface ScoredLabel {
  label: string
  score: number
}

function softmaxInPlace(values: Float64Array): void {
  let max = -Infinity
  for (const value of values) if (value > max) max = value
  let sum = 0
  for (let i = 0; i < values.length; i++) sum += values[i] = Math.exp(values[i] - max)
  for (let i = 0; i < values.length; i++) values[i] /= sum
}

function squaredNorm(vector: Float32Array): number {
  let sum = 0
  for (const value of vector) sum += value * value
  return sum
}

function checkVectors(vectors: Float32Array[], dimensions: number, what: string): void {
  vectors.forEach((vector, i) => {
    if (vector.length !== dimensions)
      throw new Error(`${what} ${i} has ${vector.length} dimensions where ${dimensions} were expected`)
  })
}

/** Per text, the probability of each label (in the labels' order) from cosine similarity. */
export function zeroShotScores(textVectors: Float32Array[], labelVectors: Float32Array[]): number[][] {
  if (labelVectors.length === 0) throw new Error('zero-shot classification needs at least one label')
  const dimensions = labelVectors[0].length
  checkVectors(labelVectors, dimensions, 'label vector')
  checkVectors(textVectors, dimensions, 'text vector')
  return textVectors.map((text) => {
    const logits = new Float64Array(labelVectors.length)
    labelVectors.forEach((label, j) => {
      let dot = 0
      for (let d = 0; d < dimensions; d++) dot += text[d] * label[d]
      logits[j] = dot / ZERO_SHOT_TEMPERATURE
    })
    softmaxInPlace(logits)
    return Array.from(logits)
  })
}

/** Class probabilities of one vector under the weights, into `out`. */
function probabilities(model: ClassifierWeights, vector: Float32Array, out: Float64Array): void {
  const { dimensions, weights, bias } = model
  for (let c = 0; c < out.length; c++) {
    let logit = bias[c]
    const row = c * dimensions
    for (let d = 0; d < dimensions; d++) logit += weights[row + d] * vector[d]
    out[c] = logit
  }
  softmaxInPlace(out)
}

/** Per vector, every label with its probability, most probable first. */
export function predict(model: ClassifierWeights, vectors: Float32Array[]): ScoredLabel[][] {
  checkWeights(model)
  checkVectors(vectors, model.dimensions, 'vector')
  const scores = new Float64Array(model.labels.length)
  return vectors.map((vector) => {
    probabilities(model, vector, scores)
    return model.labels.map((label, c) => ({ label, score: scores[c] })).sort((a, b) => b.score - a.score)
  })
}

/** The earlier weights (or none) widened by the examples' new labels, whose rows start at zero. */
function startingWeights(previous: ClassifierWeights | undefined, examples: TrainingExample[]): ClassifierWeights {
  const dimensions = previous?.dimensions ?? examples[0].vector.length
  const labels = [...(previous?.labels ?? [])]
  for (const { label } of examples) if (!labels.includes(label)) labels.push(label)
  const weights = new Float32Array(labels.length * dimensions)
  const bias = new Float32Array(labels.length)
  if (previous) {
    weights.set(previous.weights)
    bias.set(previous.bias)
  }
  return { labels, dimensions, weights, bias }
}

export interface TrainingRequest {
  previous?: ClassifierWeights
  examples: TrainingExample[]
  /** Passes over the examples. */
  numIters: number
}

/**
 * Each example's weight in the loss, so that every label among the examples weighs as much as any other
 * (sklearn's class_weight="balanced"), averaging to 1. Without it the examples' label frequencies would
 * become the model's prior: a continuation sent with mostly one label's examples would tilt every
 * prediction towards that label, since texts share common words (a common direction in their vectors).
 */
function balancedWeights(targets: number[], classes: number): Float64Array {
  const counts = new Float64Array(classes)
  for (const target of targets) counts[target]++
  const present = counts.filter((count) => count > 0).length
  return Float64Array.from(targets, (target) => targets.length / (present * counts[target]))
}

function checkTraining({ previous, examples, numIters }: TrainingRequest): void {
  if (!Number.isInteger(numIters) || numIters < 1)
    throw new Error(`numIters must be a whole number ≥ 1, not ${numIters}`)
  if (examples.length === 0) throw new Error('training needs at least one example')
  if (previous) checkWeights(previous)
  const dimensions = previous?.dimensions ?? examples[0].vector.length
  examples.forEach(({ label, vector }, i) => {
    if (typeof label !== 'string' || label.length === 0) throw new Error(`example ${i} has no label`)
    if (vector.length !== dimensions)
      throw new Error(`example ${i} has ${vector.length} dimensions where ${dimensions} were expected`)
    if (!vector.every(Number.isFinite)) throw new Error(`example ${i} has a value that is not a finite number`)
  })
}

/** A training pass over 1,024 examples of 16 labels takes about 25 ms: other requests get the event loop between passes. */
const YIELD_AFTER_MS = 20

export async function trainClassifier(request: TrainingRequest): Promise<ClassifierWeights> {
  checkTraining(request)
  const { previous, examples, numIters } = request
  const model = startingWeights(previous, examples)
  const { dimensions, weights, bias, labels } = model
  const classes = labels.length
  const targets = examples.map(({ label }) => labels.indexOf(label))
  const exampleWeights = balancedWeights(targets, classes)
  let largestSquare = 0
  for (const { vector } of examples) largestSquare = Math.max(largestSquare, squaredNorm(vector))
  const step = LEARNING_RATE / Math.max(1, (largestSquare + 1) / 2) / examples.length
  const scores = new Float64Array(classes)
  const gradient = new Float64Array(classes * dimensions)
  const biasGradient = new Float64Array(classes)
  const velocity = new Float64Array(classes * dimensions)
  const biasVelocity = new Float64Array(classes)

  // Full-batch descent: each pass is one step on the average loss, so its result does not depend on the
  // examples' order, and the first pass from zero is already a centroid classifier.
  let ranSince = performance.now()
  for (let pass = 0; pass < numIters; pass++) {
    if (performance.now() - ranSince > YIELD_AFTER_MS) {
      await new Promise((resolve) => setImmediate(resolve))
      ranSince = performance.now()
    }
    gradient.fill(0)
    biasGradient.fill(0)
    examples.forEach(({ vector }, e) => {
      probabilities(model, vector, scores)
      scores[targets[e]] -= 1
      // Gradient of cross-entropy: (p − one-hot) ⊗ x, weighted so each label present counts alike.
      for (let c = 0; c < classes; c++) {
        const error = scores[c] * exampleWeights[e]
        biasGradient[c] += error
        const row = c * dimensions
        for (let d = 0; d < dimensions; d++) gradient[row + d] += error * vector[d]
      }
    })
    const penalty = L2_PENALTY * examples.length
    for (let k = 0; k < weights.length; k++) {
      velocity[k] = MOMENTUM * velocity[k] - step * (gradient[k] + penalty * weights[k])
      weights[k] += velocity[k]
    }
    for (let c = 0; c < classes; c++) {
      biasVelocity[c] = MOMENTUM * biasVelocity[c] - step * biasGradient[c]
      bias[c] += biasVelocity[c]
    }
  }
  return model
}
