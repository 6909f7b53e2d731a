/**
 * What arrives from a child over the IPC channel, read as data: the implementation runs in that
 * process and may write to the channel (`process.send('ready')`, `process.send(null)`, a raw line
 * on the channel's file descriptor), so a message is any JSON value until its shape is checked.
 * A message of no known shape is `undefined` here, and the supervisor names it as the
 * implementation's misbehaviour instead of throwing.
 */
import type { FromChild } from './child-messages.js'
import { ESCAPE_KINDS } from '../watchdog/record.js'

type Data = Record<string, unknown>

const isData = (value: unknown): value is Data => typeof value === 'object' && value !== null && !Array.isArray(value)
const isText = (value: unknown): value is string => typeof value === 'string'
const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value)
const isTextList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isText)
const isMaybe = (value: unknown, is: (v: unknown) => boolean) => value === undefined || is(value)
const VERDICT_STATUS = new Set(['passed', 'failed', 'error', 'untested'])
const KILLED = new Set(['blocked', 'deadline', 'budget'])
const isKind = (value: unknown) => (ESCAPE_KINDS as readonly unknown[]).includes(value)
/** How a process ended, as a report row's `ended` holds it. */
const isEnd = (e: unknown): boolean =>
  isData(e) && isMaybe(e.exitCode, (c) => c === null || Number.isInteger(c)) && isMaybe(e.signal, (g) => g === null || isText(g))
  && isMaybe(e.killed, (k) => KILLED.has(k as string)) && isMaybe(e.outOfMemory, (o) => o === true)

const isProperty = (p: unknown): boolean =>
  isData(p) && isText(p.id) && isText(p.level) && isText(p.profile) && isText(p.title) && typeof p.scenario === 'boolean'
const isIdentity = (a: unknown): boolean => isData(a) && isText(a.name) && isTextList(a.profiles)
const isVerdict = (v: unknown): boolean =>
  isData(v) && isText(v.clause) && isText(v.level) && isText(v.profile) && isText(v.title) && VERDICT_STATUS.has(v.status as string)
  && isMaybe(v.stage, isText) && isMaybe(v.escape, isKind) && isMaybe(v.ended, isEnd)
const isEscape = (e: unknown): boolean =>
  isData(e) && isKind(e.kind) && isText(e.detail) && isMaybe(e.at, (at) => isData(at) && isText(at.clause) && isText(at.title))
  && isMaybe(e.stage, isText) && isMaybe(e.ended, isEnd)

const SHAPES: Record<string, (m: Data) => boolean> = {
  ready: (m) => isIdentity(m.adapter) && Array.isArray(m.properties) && m.properties.every(isProperty),
  'load-error': (m) => isText(m.error),
  preflight: (m) => (m.ok === true ? isTextList(m.seamErrors) : m.ok === false && isText(m.error)),
  started: (m) => isText(m.clause),
  verdict: (m) => isVerdict(m.verdict),
  escape: (m) => isEscape(m.escape),
  beat: (m) => isCount(m.cases),
}

/** The message, when it has the shape of one the child sends; otherwise undefined. */
export function readMessage(raw: unknown): FromChild | undefined {
  if (!isData(raw) || !isText(raw.type) || !Object.hasOwn(SHAPES, raw.type)) return undefined
  return SHAPES[raw.type]!(raw) ? (raw as unknown as FromChild) : undefined
}
