import { describe, expect, it } from 'vitest'
import { deepFreeze, snapshotJson } from '../json/lossless.js'

describe('lossless JSON snapshots', () => {
  it('copies plain JSON and detaches it from the source', () => {
    const source = { a: [1, 'x', null, true], b: { c: 2 } }
    const snap = snapshotJson(source)
    expect(snap).toEqual({ ok: true, value: source })
    if (snap.ok) expect(snap.value).not.toBe(source)
  })

  it('keeps an own "__proto__" key as data', () => {
    const source = JSON.parse('{"__proto__": {"polluted": true}}')
    const snap = snapshotJson(source)
    expect(snap.ok && Object.getPrototypeOf(snap.value)).toBe(Object.prototype)
    expect(snap.ok && JSON.stringify(snap.value)).toBe('{"__proto__":{"polluted":true}}')
  })

  const cycle: Record<string, unknown> = {}
  cycle.self = cycle
  const refused: [string, unknown][] = [
    ['BigInt', { n: 1n }],
    ['a cycle', cycle],
    ['a function', { f: () => 1 }],
    ['a symbol', [Symbol('s')]],
    ['undefined', { u: undefined }],
    ['NaN', NaN],
    ['-0', { z: -0 }],
    ['a sparse array', [1, , 3]],
    ['a Map', new Map()],
    ['a class instance', new (class Point {})()],
    ['a Date', new Date(0)],
    ['a throwing getter', Object.defineProperty({}, 'g', { get: () => { throw new Error('boom') }, enumerable: true })],
    ['a symbol key', { [Symbol('k')]: 1 }],
    ['a non-enumerable key', Object.defineProperty({}, 'hidden', { value: 1, enumerable: false })],
  ]
  it.each(refused)('refuses %s', (_label, value) => {
    expect(snapshotJson(value).ok).toBe(false)
  })

  it('deep-freezes what it is given', () => {
    const value = deepFreeze({ a: { b: [1, { c: 2 }] } })
    expect(Object.isFrozen(value.a.b[1])).toBe(true)
  })
})
