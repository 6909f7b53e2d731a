/** A time limit a variable of the environment may override (a positive number of milliseconds), else `fallback`. */
export function millisecondsFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}
