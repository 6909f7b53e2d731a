/**
 * Who owns what across the process boundary. Each side numbers the things it owns and sends
 * (objects, functions, symbols, promises, signals); the peer keeps a copy or stub per number, so
 * the same thing always arrives as the same copy (identity), and a copy sent back arrives as the
 * original. Copies are held weakly: when one is collected the peer says `release`, and the owner
 * forgets the original, unless it sent it again since (the generation says so).
 */
export type Thing = object | symbol

export class HandleTables {
  private nextId = 1
  private readonly ownIds = new WeakMap<Thing, number>()
  private readonly owned = new Map<number, { thing: Thing; gen: number }>()
  private readonly copies = new Map<number, { ref: WeakRef<Thing>; gen: number; serial: number }>()
  private readonly copyIds = new WeakMap<Thing, number>()
  private serial = 0
  private readonly finalizer: FinalizationRegistry<{ id: number; serial: number }>

  constructor(private readonly onReleased: (id: number, gen: number) => void) {
    this.finalizer = new FinalizationRegistry(({ id, serial }) => {
      const entry = this.copies.get(id)
      if (!entry || entry.serial !== serial) return
      this.copies.delete(id)
      this.onReleased(id, entry.gen)
    })
  }

  /**
   * The id of a thing we own, minted on first send; every send is a new generation. `fresh` when
   * the peer holds no copy yet (first send, or sent again after a release).
   */
  send(thing: Thing): { id: number; fresh: boolean } {
    let id = this.ownIds.get(thing)
    if (id === undefined) this.ownIds.set(thing, (id = this.nextId++))
    const entry = this.owned.get(id)
    if (entry) entry.gen++
    else this.owned.set(id, { thing, gen: 1 })
    return { id, fresh: entry === undefined }
  }

  /** Our id for a thing, without sending it. */
  peekOwn(thing: Thing): number | undefined {
    return this.ownIds.get(thing)
  }

  /** Whether the peer may still hold a copy of our thing `id`. */
  isShared(id: number): boolean {
    return this.owned.has(id)
  }

  /** Our own thing, named by the peer in a `ref`. */
  own(id: number): Thing | undefined {
    return this.owned.get(id)?.thing
  }

  /** The peer's copy of our thing was collected: forget it unless sent again since. */
  release(id: number, gen: number): void {
    if (this.owned.get(id)?.gen === gen) this.owned.delete(id)
  }

  /** Our live copy of the peer's thing `id`, if any. */
  copy(id: number): Thing | undefined {
    return this.copies.get(id)?.ref.deref()
  }

  /** Records our copy of the peer's thing `id` at generation `gen`. */
  keepCopy(id: number, copy: Thing, gen: number): void {
    const entry = this.copies.get(id)
    if (entry && entry.ref.deref() === copy) {
      entry.gen = gen
      return
    }
    const serial = ++this.serial
    this.copies.set(id, { ref: new WeakRef(copy), gen, serial })
    this.copyIds.set(copy, id)
    this.finalizer.register(copy, { id, serial })
  }

  /** The peer's id for a copy we hold (to send it back as a `ref`). */
  peerIdOf(thing: Thing): number | undefined {
    return this.copyIds.get(thing)
  }

  /** The generation of the peer's thing `id` as we last received it. */
  nextGen(id: number): number {
    return (this.copies.get(id)?.gen ?? 0) + 1
  }
}

/** Symbols that cannot be held weakly cross by name instead: registered and well-known ones. */
export function symbolByName(symbol: symbol): { for: string } | { wellKnown: string } | undefined {
  const key = Symbol.keyFor(symbol)
  if (key !== undefined) return { for: key }
  for (const name of Object.getOwnPropertyNames(Symbol)) {
    if ((Symbol as unknown as Record<string, unknown>)[name] === symbol) return { wellKnown: name }
  }
  return undefined
}
