// The HTML report in a real browser (the npm registry's Chromium, tests/npm-chromium.ts, driven by
// playwright-core): it opens on the failure (story and marked step on the first screen), the
// matrix lists every clause, the filters work, and a failure's timeline renders. `npm ci` is all
// the set-up; no system browser is used.
import { mkdir, mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { chromium, type Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLAUSES } from '../harness/contract/clauses.js'
import { npmChromium } from './npm-chromium.js'

let browser: Browser
let page: string

// Seed 5: MODE-2's first failure there is a scenario (a timeline to render) whose shrunk story fits one
// screen; a direct case, or a case a reach grew, would test another layout.
beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'toolreg-html-'))
  page = join(dir, 'report.html')
  const run = await execa(
    'node',
    [
      'harness/cli/toolreg.mjs',
      'certify',
      '--adapter',
      'fixtures/mutants/mode-truthy-classifier.ts',
      '--clause',
      'MODE-2',
      '--clause',
      'PRE-1',
      '--runs',
      '20',
      '--seed',
      '5',
      '--no-corpus',
      '--html',
      page,
    ],
    { reject: false },
  )
  expect(run.exitCode).toBe(1)
  const { version, executablePath, args, env } = await npmChromium()
  browser = await chromium.launch({ executablePath, args, env, headless: true })
  // The browser is the package's, not one the system may have.
  expect(browser.version().split('.')[0]).toBe(version.split('.')[0])
})

afterAll(async () => {
  await browser?.close()
})

describe('the HTML report in headless Chromium', () => {
  it('lists every clause of the contract and filters to the failure, whose timeline renders', async () => {
    const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const requests: string[] = []
    tab.on('request', (r) => requests.push(r.url()))
    await tab.goto(pathToFileURL(page).href)
    const ids = await tab.locator('[data-testid=matrix] tbody tr').evaluateAll((rows) => rows.map(
      (r) => (r as unknown as { dataset: { id: string } }).dataset.id,
    ))
    expect(ids).toEqual(CLAUSES.map((c) => c.id))
    expect(await tab.locator('[data-testid=matrix] tbody tr:visible').count()).toBe(1)
    await tab.getByRole('button', { name: 'all', exact: true }).click()
    expect(await tab.locator('[data-testid=matrix] tbody tr:visible').count()).toBe(CLAUSES.length)
    await tab.getByRole('button', { name: 'failed', exact: true }).click()
    expect(await tab.locator('[data-testid=matrix] tbody tr:visible').count()).toBe(1)
    await tab.getByRole('searchbox').fill('MODE')
    expect(
      await tab.locator('[data-testid=matrix] tbody tr:visible').evaluateAll((rows) => rows.map(
        (r) => (r as unknown as { dataset: { id: string } }).dataset.id,
      )),
    ).toEqual(['MODE-2'])
    const failure = tab.locator('[data-testid=failure]#failure-MODE-2')
    await expect.poll(() => failure.locator('[data-testid=timeline] .bar').count()).toBeGreaterThan(0)
    expect(await failure.locator('[data-testid=timeline] .settled').count()).toBeGreaterThan(0)
    await mkdir(resolve('reports'), { recursive: true })
    await tab.screenshot({ path: resolve('reports/html-report.png'), fullPage: true })
    expect(requests.filter((url) => !url.startsWith('file:'))).toEqual([])
  })

  it('opens on the failure: its story and marked step visible without scrolling, the raw JSON behind a toggle', async () => {
    const viewport = { width: 1280, height: 900 }
    const tab = await browser.newPage({ viewport })
    await tab.goto(pathToFileURL(page).href)
    const failure = tab.locator('[data-testid=failure]#failure-MODE-2')
    const marked = failure.locator('[data-testid=marked-step]').first()
    for (const shown of [failure.locator('h3'), failure.locator('[data-testid=story]'), marked]) {
      const box = await shown.boundingBox()
      expect(box).not.toBeNull()
      expect(box!.y).toBeGreaterThanOrEqual(0)
      expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height)
    }
    expect(await failure.locator('[data-testid=story] li').count()).toBeGreaterThan(1)
    const raw = failure.locator('[data-testid=raw]')
    expect(await raw.locator('pre').isVisible()).toBe(false)
    await raw.locator('summary').click()
    expect(await raw.locator('pre').isVisible()).toBe(true)
    await mkdir(resolve('reports'), { recursive: true })
    await tab.screenshot({ path: resolve('reports/html-report-first-screen.png') })
  })
})
