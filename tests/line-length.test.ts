// No source line is longer than a reader can take in at once: 160 characters in every git-tracked
// *.ts, *.mjs and *.mts file. A file may be listed in STILL_LONG while it is being changed elsewhere;
// a listed file without a long line fails too, so it leaves the list.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const MAX = 160

/** Files allowed longer lines while they are being changed elsewhere; empty now, and it can only shrink. */
const STILL_LONG: readonly string[] = []

const root = new URL('..', import.meta.url)
const tracked = execFileSync('git', ['ls-files', '*.ts', '*.mjs', '*.mts'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)

/** `file:line (length)` for each line over MAX characters (code points, not UTF-16 units or bytes). */
function longLines(file: string): string[] {
  const lines = readFileSync(new URL(file, root), 'utf8').split('\n')
  return lines.flatMap((line, i) => ([...line].length > MAX ? [`${file}:${i + 1} (${[...line].length})`] : []))
}

describe('line length', () => {
  it(`no line of a tracked source file is over ${MAX} characters, outside the allow-list`, () => {
    expect(tracked.length).toBeGreaterThan(100)
    expect(tracked.filter((f) => !STILL_LONG.includes(f)).flatMap(longLines)).toEqual([])
  })

  it('every allow-listed file is tracked and still has a long line (otherwise it leaves the list)', () => {
    expect(STILL_LONG.filter((f) => !tracked.includes(f))).toEqual([])
    expect(STILL_LONG.filter((f) => longLines(f).length === 0)).toEqual([])
  })
})
