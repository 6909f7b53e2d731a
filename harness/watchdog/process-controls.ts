/**
 * The controls of a child process that belong to the harness, not to the implementation it runs:
 * the IPC channel to the supervisor (`process.send`, `process.disconnect`) and signals to the
 * supervisor or to whole process groups (`process.kill(process.ppid)`, `process.kill(0)`,
 * `process.kill(-pid)`, `process.kill(-1)`). Trapped before the adapter loads: a registry that
 * announces itself to a process manager (`process.send('ready')`), drops the channel or kills its
 * parent reaches nothing, and each attempt is recorded as an escape of the case it happened in.
 * What goes around these (a shell's `kill`, a raw write on the channel's file descriptor) the
 * supervisor survives on its own (supervisor/read-message.ts, process groups).
 */
import { show } from '../safe/safe-read.js'

type Callback = (error: Error | null) => void

/** Replaces the controls; the harness keeps its own `process.send` from before this call. */
export function trapProcessControls(record: (detail: string) => void): void {
  const kill = process.kill.bind(process)
  const parent = process.ppid
  const attempted = (what: string) => `the implementation called ${what}, a control of the harness's child process (the call did nothing)`
  process.send = ((message: unknown, ...rest: unknown[]) => {
    record(attempted(`process.send(${show(message, 80)})`))
    const callback = rest.find((r): r is Callback => typeof r === 'function')
    if (callback) queueMicrotask(() => callback(null))
    return true
  }) as typeof process.send
  process.disconnect = () => record(attempted('process.disconnect()'))
  process.kill = ((pid: number, signal?: string | number) => {
    const target = Number(pid)
    if (target !== parent && target > 0) return kill(pid, signal)
    record(attempted(`process.kill(${show(pid, 20)}${signal === undefined ? '' : `, ${show(signal, 20)}`})`))
    return true
  }) as typeof process.kill
}
