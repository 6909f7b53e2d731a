// The documentation stays inside the repository: the README is one screen to start plus links, and
// every Markdown link of a tracked document points at a tracked file of this repository. No tracked
// document or source names a folder beside the checkout: a clone, or an installed package, has none.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { posix } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = new URL('..', import.meta.url)
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean)
const tracked = new Set(git('ls-files'))
const documents = [...tracked].filter((f) => f.endsWith('.md'))
const read = (file: string) => readFileSync(new URL(file, root), 'utf8')

const withoutFences = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')

/** Text outside fenced code blocks and inline code spans: what Markdown renders as links. */
function prose(markdown: string): string {
  return withoutFences(markdown).replace(/(`+)[^`\n]*?\1/g, '')
}

/** The anchors of a document's headings, as GitHub makes them (a repeated heading gets `-1`, `-2`…). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>()
  const slugs = [...withoutFences(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((m) => {
    const text = (m[1] ?? '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')
    const slug = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
    const n = seen.get(slug) ?? 0
    seen.set(slug, n + 1)
    return n === 0 ? slug : `${slug}-${n}`
  })
  return new Set(slugs)
}

/** The targets of inline links and images, `[text](target)`, and of references, `[id]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown)
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? '')
  const references = [...text.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1] ?? '')
  return [...inline, ...references]
}

/** Why a link of `file` does not resolve to a tracked file of the repository, or undefined. */
function brokenLink(file: string, target: string): string | undefined {
  if (target === '') return 'an empty link'
  if (/^[a-z][a-z\d+.-]*:/i.test(target) || target.startsWith('//')) return 'it leaves the repository'
  if (target.startsWith('/')) return 'an absolute path'
  const path = decodeURI(target.replace(/[#?].*$/, ''))
  const anchor = /#(.*)$/.exec(target)?.[1]
  const resolved = path === '' ? file : posix.normalize(posix.join(posix.dirname(file), path)).replace(/\/$/, '')
  if (resolved === '..' || resolved.startsWith('../')) return 'it leaves the repository'
  if (resolved === '.' || tracked.has(resolved)) {
    const headed = anchor === undefined || !resolved.endsWith('.md') || anchors(read(resolved)).has(decodeURI(anchor))
    return headed ? undefined : 'no heading with that anchor'
  }
  return [...tracked].some((f) => f.startsWith(`${resolved}/`)) ? undefined : 'no tracked file there'
}

/** Names of places outside the checkout: the folder beside it, or a machine's own paths. */
const OUTSIDE = /\.\.\/shared\b|\bshared folder\b|\/work\//i

describe('documentation', () => {
  it('README.md is one screen to start, then links: under 300 lines', () => {
    const lines = read('README.md').split('\n').length
    expect(lines).toBeGreaterThan(50)
    expect(lines).toBeLessThan(300)
  })

  it('README.md shows the quick start CI and the hooks run: npm ci && npm run certify, npm test', () => {
    const readme = read('README.md')
    expect(readme).toContain('npm ci && npm run certify')
    expect(readme).toMatch(/^npm test\b/m)
  })

  it('every relative link of every tracked Markdown file resolves to a tracked file inside the repository', () => {
    expect(documents.length).toBeGreaterThan(5)
    const broken = documents.flatMap((file) =>
      linkTargets(read(file)).flatMap((target) => {
        const why = brokenLink(file, target)
        return why ? [`${file}: (${target}) ${why}`] : []
      }),
    )
    expect(broken).toEqual([])
  })

  it('the link check itself rejects links that leave the repository or point nowhere', () => {
    expect(linkTargets('[a](x.md) `[b](y.md)` [c](<z.md> "t")\n```\n[d](w.md)\n```\n[e]: https://e.example')).toEqual([
      'x.md',
      'z.md',
      'https://e.example',
    ])
    expect(brokenLink('harness/contract/ADAPTER.md', 'SPEC.md#shapes')).toBeUndefined()
    expect(brokenLink('README.md', 'harness/')).toBeUndefined()
    expect(brokenLink('README.md', '../shared/ADAPTER.md')).toBe('it leaves the repository')
    expect(brokenLink('reports/README.md', '../../x.md')).toBe('it leaves the repository')
    expect(brokenLink('README.md', 'https://example.com/')).toBe('it leaves the repository')
    expect(brokenLink('README.md', 'harness/no-such-file.md')).toBe('no tracked file there')
    expect(brokenLink('README.md', 'harness/contract/SPEC.md#no-such-heading')).toBe('no heading with that anchor')
    expect([...anchors('# A `b` [c](d.md): e\n```\n# no\n```\n## A b c e\n')]).toEqual(['a-b-c-e', 'a-b-c-e-1'])
  })

  it('the package ships the documents a user of an installed toolreg reads, and the report schemas it loads', () => {
    const files = (JSON.parse(read('package.json')) as { files: string[] }).files
    const shipped = (path: string) => files.some((entry) => path === entry || path.startsWith(`${entry}/`))
    const needed = ['README.md', 'harness/contract/SPEC.md', 'harness/contract/ADAPTER.md', 'reports/README.md']
    const schemas = [...tracked].filter((f) => f.startsWith('reports/schema/'))
    expect(schemas.length).toBeGreaterThan(0)
    expect([...needed, ...schemas].filter((path) => !shipped(path))).toEqual([])
  })

  it('no tracked document, source, script or JSON file refers to a place outside the repository', () => {
    const checked = [...tracked].filter((f) => /\.(md|ts|mts|mjs|js|json|ya?ml)$/.test(f) && f !== 'package-lock.json')
    expect(checked.length).toBeGreaterThan(100)
    const outside = checked.flatMap((file) =>
      read(file)
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) && file !== 'tests/docs.test.ts' ? [`${file}:${i + 1}`] : [])),
    )
    expect(outside).toEqual([])
  })
})
