/**
 * Coverage of the implementation under test: vitest's V8 coverage over the adapter's
 * implementation while the suites run, summarised into the report; the full output (HTML,
 * lcov, JSON) goes under reports/coverage/.
 */
import { readFile } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const COVERAGE_DIR = resolve('reports/coverage')
const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export interface CoverageSummary {
  include: string[]
  lines: number
  statements: number
  functions: number
  branches: number
}

/** What to measure: the given globs, or the folder of the adapter's module (the reference's implementation by default). */
export function coverageGlobs(globs: readonly string[], adapterPath: string | undefined): string[] {
  if (globs.length > 0) return [...globs]
  if (!adapterPath) return ['reference-impl/**/*.ts']
  const folder = relative(PACKAGE_ROOT, dirname(adapterPath)) || '.'
  return [join(folder, '**/*.{ts,js,mts,mjs}')]
}

export function coverageOptions(globs: readonly string[], adapterPath: string | undefined) {
  return {
    enabled: true,
    provider: 'v8' as const,
    include: coverageGlobs(globs, adapterPath),
    exclude: ['**/node_modules/**', '**/*.test.ts', 'harness/**', 'suites/**'],
    allowExternal: true,
    reportsDirectory: COVERAGE_DIR,
    reporter: ['text-summary', 'json-summary', 'html', 'lcov'],
    clean: true,
  }
}

export async function readCoverageSummary(dir: string, include: string[]): Promise<CoverageSummary | undefined> {
  try {
    const summary = JSON.parse(await readFile(join(dir, 'coverage-summary.json'), 'utf8')) as { total: Record<string, { pct: number }> }
    const pct = (key: string) => {
      const value = summary.total[key]?.pct
      return typeof value === 'number' ? value : 0
    }
    return { include, lines: pct('lines'), statements: pct('statements'), functions: pct('functions'), branches: pct('branches') }
  } catch {
    return undefined
  }
}
