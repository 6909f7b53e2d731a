/**
 * The protocol's messages: one JSON object per line, in both directions. Their JSON Schemas are
 * in schema/ (checked with --validate-protocol). Requests carry an `id` of the sender's and are
 * answered by a `reply` with the same id; `release` and `log` are not answered.
 */
import type { Encoded } from './codec.js'

export const PROTOCOL_VERSION = 1

export interface Hello {
  type: 'hello'
  id: number
  protocol: number
  /** The harness checks every message against the schemas; the server may too. */
  validate?: boolean
}
export interface Welcome {
  type: 'welcome'
  id: number
  protocol: number
  implementation: { name: string; version?: string }
  profiles: string[]
}
export interface Create {
  type: 'create'
  id: number
  config: Encoded
}
export interface Call {
  type: 'call'
  id: number
  /** The receiver's function handle. */
  fn: number
  args: Encoded[]
}
export interface Settle {
  type: 'settle'
  id: number
  /** The sender's promise handle. */
  promise: number
  value?: Encoded
  error?: Encoded
}
export interface Abort {
  type: 'abort'
  id: number
  /** The sender's signal handle. */
  signal: number
  reason: Encoded
}
export interface Mutate {
  type: 'mutate'
  id: number
  /** The receiver's object. */
  object: number
  op: 'set' | 'delete'
  key: Encoded
  value?: Encoded
}
export interface Reply {
  type: 'reply'
  id: number
  value?: Encoded
  /** The thrown value, when the request threw. */
  error?: Encoded
}
export interface Release {
  type: 'release'
  /** [handle, generation] pairs of the receiver's things the sender no longer holds. */
  handles: [number, number][]
}
export interface Log {
  type: 'log'
  level: 'debug' | 'info' | 'warn' | 'error'
  message: string
}

/** Not answered: "my pending work after your last answer has run; I am idle". */
export interface Yield {
  type: 'yield'
}

export type Request = Hello | Create | Call | Settle | Abort | Mutate
export type Message = Request | Welcome | Reply | Release | Log | Yield
export type MessageType = Message['type']
export const MESSAGE_TYPES: readonly MessageType[] = ['hello', 'welcome', 'create', 'call', 'settle', 'abort', 'mutate', 'reply', 'release', 'log', 'yield']
