/** Shards: `--shard i/n` runs a deterministic share of the properties (every n-th, from the i-th). */
export interface Shard {
  index: number
  count: number
}

export function parseShard(text: string): Shard | undefined {
  const match = /^(\d+)\/(\d+)$/.exec(text)
  if (!match) return undefined
  const index = Number(match[1])
  const count = Number(match[2])
  return index >= 1 && count >= 1 && index <= count ? { index, count } : undefined
}

/** Whether `property` (at `position` in the suite order) belongs to `shard`. */
export function inShard(shard: Shard | undefined, position: number): boolean {
  return shard === undefined || position % shard.count === shard.index - 1
}

export function shardOf(properties: readonly { id: string }[], shard: Shard | undefined): Set<string> {
  return new Set(properties.filter((_, i) => inShard(shard, i)).map((p) => p.id))
}

export const formatShard = (shard: Shard) => `${shard.index}/${shard.count}`
