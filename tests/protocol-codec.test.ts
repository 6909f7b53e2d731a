// The value codec, both sides in one process: what crosses the boundary keeps its identity,
// shape, integrity level and behaviour (functions, getters, promises and signals call back).
import { describe, expect, it } from 'vitest'
import { Codec, type CodecHost } from '../harness/protocol/codec.js'
import { isDeepFrozen } from '../harness/scenario/inspect.js'

/** Two codecs wired to each other through JSON text, as the protocol does. */
function linkedPair(): { harness: Codec; server: Codec; send(value: unknown): unknown; sendBack(value: unknown): unknown } {
  const wire = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown
  const codecs: Record<'a' | 'b', Codec> = {} as never
  const host = (self: 'a' | 'b', other: 'a' | 'b'): CodecHost => ({
    call(id, _name, args) {
      const decoded = codecs[other].decodeList(wire(codecs[self].encodeList(args)) as unknown[])
      const fn = codecs[other].tables.own(id) as (...a: unknown[]) => unknown
      let result: { value: unknown } | { error: unknown }
      try {
        result = { value: codecs[other].encode(fn(...decoded)) }
      } catch (error) {
        result = { error: codecs[other].encode(error) }
      }
      const back = wire(result) as { value?: unknown; error?: unknown }
      if ('error' in back) throw codecs[self].decode(back.error)
      return codecs[self].decode(back.value)
    },
    settled: (id, outcome) => codecs[other].settle(
      id,
      'error' in outcome ? {
        error: codecs[other].decode(wire(codecs[self].encode(outcome.error))),
      } : { value: codecs[other].decode(wire(codecs[self].encode(outcome.value))) },
    ),
    aborted: (id, reason) => codecs[other].abort(id, codecs[other].decode(wire(codecs[self].encode(reason)))),
    released: (id, gen) => codecs[other].tables.release(id, gen),
  })
  codecs.a = new Codec(host('a', 'b'))
  codecs.b = new Codec(host('b', 'a'))
  return {
    harness: codecs.a,
    server: codecs.b,
    send: (value) => codecs.b.decode(wire(codecs.a.encode(value))),
    sendBack: (value) => codecs.a.decode(wire(codecs.b.encode(value))),
  }
}

describe('the value codec', () => {
  it('keeps what JSON cannot hold: undefined, NaN, ±Infinity, -0, BigInt, sparse arrays', () => {
    const { send } = linkedPair()
    const value = send({
      u: undefined,
      nan: Number.NaN,
      inf: Number.POSITIVE_INFINITY,
      ninf: Number.NEGATIVE_INFINITY,
      negzero: -0,
      big: 12345678901234567890n,
      sparse: [1, , 3],
      text: 'lone \ud800',
    }) as Record<string, unknown>
    expect('u' in value && value.u === undefined).toBe(true)
    expect(value.nan).toBeNaN()
    expect(value.inf).toBe(Number.POSITIVE_INFINITY)
    expect(value.ninf).toBe(Number.NEGATIVE_INFINITY)
    expect(Object.is(value.negzero, -0)).toBe(true)
    expect(value.big).toBe(12345678901234567890n)
    expect(1 in (value.sparse as unknown[])).toBe(false)
    expect((value.sparse as unknown[]).length).toBe(3)
    expect(value.text).toBe('lone \ud800')
  })

  it('keeps identity: one object twice is one copy, again later the same copy, and sent back the original', () => {
    const { send, sendBack } = linkedPair()
    const shared = Object.freeze({ agent: 'A' })
    const first = send({ a: shared, b: shared }) as { a: unknown; b: unknown }
    expect(first.a).toBe(first.b)
    expect(send(shared)).toBe(first.a)
    expect(sendBack(first.a)).toBe(shared)
  })

  it('keeps cycles', () => {
    const { send } = linkedPair()
    const cycle: Record<string, unknown> = { name: 'cycle' }
    cycle.self = cycle
    const copy = send(cycle) as Record<string, unknown>
    expect(copy.self).toBe(copy)
  })

  it('keeps integrity levels: deep-frozen arrives deep-frozen, a shallow freeze stays shallow, unfrozen stays writable', () => {
    const { send } = linkedPair()
    const deep = send(Object.freeze({ content: Object.freeze([Object.freeze({ type: 'text', text: 'x' })]) }))
    expect(isDeepFrozen(deep)).toBe(true)
    const shallow = send(Object.freeze({ inner: { x: 1 } })) as { inner: object }
    expect(Object.isFrozen(shallow)).toBe(true)
    expect(Object.isFrozen(shallow.inner)).toBe(false)
    expect(Object.isFrozen(send({ x: 1 }))).toBe(false)
    expect(Object.isSealed(send(Object.seal({ x: 1 })))).toBe(true)
  })

  it('keeps non-enumerable and symbol-keyed properties, and getters call back the original', () => {
    const { send } = linkedPair()
    let reads = 0
    const tag = Symbol('extra')
    const def: Record<PropertyKey, unknown> = { name: 't' }
    Object.defineProperty(def, 'hidden', { value: 1, enumerable: false, writable: true, configurable: true })
    Object.defineProperty(def, tag, { value: 'symbol-keyed', enumerable: true, writable: true, configurable: true })
    Object.defineProperty(def, 'counted', { enumerable: true, configurable: true, get: () => ++reads })
    Object.defineProperty(def, 'throws', { enumerable: true, configurable: true, get: () => { throw new TypeError('toolreg: a throwing getter') } })
    const copy = send(def) as Record<PropertyKey, unknown>
    expect(Object.getOwnPropertyDescriptor(copy, 'hidden')?.enumerable).toBe(false)
    const symbols = Object.getOwnPropertySymbols(copy)
    expect(symbols.map((s) => [s.description, copy[s]])).toEqual([['extra', 'symbol-keyed']])
    expect(typeof Object.getOwnPropertyDescriptor(copy, 'counted')?.get).toBe('function')
    expect([copy.counted, copy.counted, reads]).toEqual([1, 2, 2])
    expect(() => copy.throws).toThrow(/a throwing getter/)
  })

  it('tags what is not a plain object: class instances, Map, Set, Date, boxed primitives, errors with codes', () => {
    const { send } = linkedPair()
    class Thing {
      readonly x = 1
    }
    const value = send({
      thing: new Thing(),
      map: new Map([['k', 1]]),
      set: new Set([1]),
      date: new Date(0),
      boxed: new Boolean(true),
      error: Object.assign(new RangeError('bad'), { code: 'E_BAD' }),
    }) as Record<string, unknown>
    expect(Object.getPrototypeOf(value.thing)).not.toBe(Object.prototype)
    expect((value.thing as { x: number }).x).toBe(1)
    expect((value.map as Map<string, number>).get('k')).toBe(1)
    expect((value.set as Set<number>).has(1)).toBe(true)
    expect((value.date as Date).getTime()).toBe(0)
    expect(value.boxed).toBeInstanceOf(Boolean)
    expect(value.error).toBeInstanceOf(RangeError)
    expect({ message: (value.error as Error).message, code: (value.error as { code?: string }).code }).toEqual({ message: 'bad', code: 'E_BAD' })
  })

  it('an array of a class of its own, or with no prototype, is still an array and still not a plain one', () => {
    const { send } = linkedPair()
    class Rows extends Array<number> {}
    const bare = Object.setPrototypeOf([1], null) as unknown[]
    const value = send({ rows: Rows.from([1, 2]), plain: [3], bare }) as Record<string, unknown[]>
    expect(Object.values(value).map((array) => Array.isArray(array))).toEqual([true, true, true])
    expect([...Array.prototype.values.call(value.rows!)]).toEqual([1, 2])
    expect(Object.getPrototypeOf(value.rows).constructor.name).toBe('Rows')
    expect(Object.getPrototypeOf(value.plain)).toBe(Array.prototype)
    expect(Object.getPrototypeOf(value.bare)).toBeNull()
  })

  it('functions are handles: a call runs the original with the arguments, and a throw crosses as a throw', () => {
    const { send, sendBack } = linkedPair()
    const seen: unknown[] = []
    const original = (a: unknown, b: unknown) => (seen.push(a, b), 'done')
    const fn = send(original) as (...args: unknown[]) => unknown
    const arg = { x: 1 }
    expect(fn(arg, 2n)).toBe('done')
    expect(seen).toEqual([{ x: 1 }, 2n])
    const thrower = send(() => {
      throw Object.assign(new TypeError('refused'), { code: 'E_REFUSED' })
    }) as () => void
    expect(thrower).toThrow(TypeError)
    expect(() => thrower()).toThrow('refused')
    expect(send(original)).toBe(fn)
    const coded = send(Object.assign(() => undefined, { code: 'E_TOOL' })) as { code?: string }
    expect(coded.code).toBe('E_TOOL')
    expect(sendBack(fn)).toBe(original)
  })

  it('symbols are handles too: the same symbol arrives as the same symbol, and returns as the original', () => {
    const { send, sendBack } = linkedPair()
    const token = Symbol('toolreg.call#1')
    const copy = send(token)
    expect(typeof copy).toBe('symbol')
    expect(send({ token }) as { token: symbol }).toEqual({ token: copy })
    expect(sendBack(copy)).toBe(token)
    expect(send(Symbol.for('registered'))).toBe(Symbol.for('registered'))
  })

  it('promises settle across, and an abort crosses as it happens, with its reason', async () => {
    const { send } = linkedPair()
    await expect(send(Promise.resolve({ ok: 1 }))).resolves.toEqual({ ok: 1 })
    await expect(send(Promise.reject(new Error('nope')))).rejects.toThrow('nope')
    const controller = new AbortController()
    const mirror = send(controller.signal) as AbortSignal
    const heard: unknown[] = []
    mirror.addEventListener('abort', () => heard.push(mirror.reason))
    expect(mirror).toBeInstanceOf(AbortSignal)
    controller.abort(new DOMException('stop', 'TimeoutError'))
    expect(heard.map((r) => (r as DOMException).name)).toEqual(['TimeoutError'])
    expect((send(AbortSignal.abort('already')) as AbortSignal).reason).toBe('already')
  })
})
