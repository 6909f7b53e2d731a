/**
 * The reports a run wrote, sealed by their content's hash and checked again just before the
 * command exits: a process the run could not end (one that left its process group and cleared
 * its environment) that rewrote a report meanwhile fails the run (exit 2) instead of leaving a
 * report that says something else than the exit code.
 */
import { createHash } from 'node:crypto'
import { readUntrusted } from '../safe/untrusted-file.mjs'

export interface WrittenReport {
  file: string
  sha256: string
}

/** Reports as large as this are read back whole; a file grown past it was rewritten. */
const MAX_REPORT_BYTES = 512 * 1024 * 1024

const hashOf = (text: string) => createHash('sha256').update(text).digest('hex')

export const sealed = (file: string, text: string): WrittenReport => ({ file, sha256: hashOf(text) })

/** The reports whose file no longer holds what was written (changed, removed, replaced by something else). */
export function rewrittenReports(written: readonly WrittenReport[]): string[] {
  return written.filter(({ file, sha256 }) => {
    const text = readUntrusted(file, MAX_REPORT_BYTES)
    return text === undefined || hashOf(text) !== sha256
  }).map(({ file }) => file)
}
