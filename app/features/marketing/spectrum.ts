import type { Product } from '#content/schemas'

/** The product's three hues as a CSS gradient; lightness and chroma are fixed so every product reads alike. */
export function spectrumGradient(spectrum: Product['spectrum'], angle = 135): string {
  const [a, b, c] = spectrum.map((hue) => `oklch(0.72 0.14 ${hue})`)
  return `linear-gradient(${angle}deg, ${a}, ${b}, ${c})`
}
