/** Medians with their spread: every benchmark figure is reported as median [min–max]. */
export interface Spread {
  median: number
  min: number
  max: number
  samples: number
}

export function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = Math.floor(sorted.length / 2)
  const median = sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
  return { median, min: sorted[0] ?? Number.NaN, max: sorted[sorted.length - 1] ?? Number.NaN, samples: sorted.length }
}

export const fmt = (s: Spread, digits = 1, unit = '') => `${s.median.toFixed(digits)}${unit} [${s.min.toFixed(digits)}–${s.max.toFixed(digits)}]`
