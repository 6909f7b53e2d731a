// The own-time clock (harness/safe/own-time.mjs) the watchdog, the supervisor's backstop and the
// per-case budgets judge by: a thread that spins or sleeps synchronously accrues own time, one
// starved of CPU by other processes does not, and where the kernel's statistics cannot be read
// the clock counts wall time without a jump. Starvation is made deterministic by pinning the
// measured processes and CPU hogs to one CPU (taskset), else by more hogs than CPUs.
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism } from 'node:os'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ownClock } from '../harness/safe/own-time.mjs'
import { pinned, pinning } from './one-cpu.js'

const OWN_TIME = new URL('../harness/safe/own-time.mjs', import.meta.url).href
const HOGS = pinning ? 3 : 4 * availableParallelism()
const started: ChildProcess[] = []
/** How far own time may read ahead: the kernel counts a wait for the CPU a little after it ends. */
const WAIT_SLACK_MS = 100

/** A node process running `script`, on CPU 0 when pinning is possible. */
function node(script: string): ChildProcess {
  const args = ['--input-type=module', '-e', script]
  const child = spawn(...pinned(process.execPath, args))
  started.push(child)
  return child
}

/** The pid of the node process itself (under taskset, which execs it, the same pid). */
const pidOf = (child: ChildProcess) => child.pid!

/** A node process that says it is ready (started up) on stdout, then runs `then`. */
async function ready(then: string): Promise<ChildProcess> {
  const child = node(`console.log('ready'); setImmediate(() => { ${then} })`)
  await new Promise((resolve) => child.stdout!.once('data', resolve))
  return child
}

const SPIN = 'for (;;) {}'
const SLEEP = 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60_000)'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Own and wall time of `pid`'s main thread over `ms` of wall time, measured from this process. */
async function measure(pids: number[], ms: number): Promise<{ own: number; wall: number }[]> {
  const clocks = pids.map((pid) => ownClock(pid))
  const from = clocks.map((c) => [c.now(), performance.now()] as const)
  await sleep(ms)
  return clocks.map((c, i) => {
    const [own, wall] = [c.now() - from[i]![0], performance.now() - from[i]![1]]
    c.close()
    return { own, wall }
  })
}

afterAll(() => {
  for (const child of started) child.kill('SIGKILL')
})

describe('own time: what a process itself spent, not what others took from it', () => {
  test('a thread that spins accrues its CPU time as own time, never more than wall time', () => {
    const clock = ownClock()
    expect(clock.measured, 'Linux schedstat is readable here').toBe(true)
    const [own0, cpu0, wall0] = [clock.now(), clock.cpuMs!, performance.now()]
    while (clock.now() - own0 < 300) {
      // spin
    }
    const [own, cpu, wall] = [clock.now() - own0, clock.cpuMs! - cpu0, performance.now() - wall0]
    expect(cpu, 'the spin ran on a CPU').toBeGreaterThan(0)
    expect(own).toBeGreaterThanOrEqual(0.95 * cpu)
    expect(own).toBeLessThanOrEqual(wall + 1)
    clock.close()
  })

  test('a thread that sleeps synchronously (Atomics.wait) accrues own time at wall speed', () => {
    const clock = ownClock()
    const own0 = clock.now()
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400)
    // The first reading may run ahead by a wait for the CPU the kernel had not counted yet.
    expect(clock.now() - own0).toBeGreaterThanOrEqual(400 - WAIT_SLACK_MS)
    clock.close()
  })

  test('the clock of a process that cannot be read (gone, or no /proc) counts wall time, without a jump when it goes', async () => {
    const missing = ownClock(2 ** 22 + 1)
    expect(missing.measured).toBe(false)
    const sleeper = await ready(SLEEP)
    const clock = ownClock(pidOf(sleeper))
    expect(clock.measured).toBe(true)
    const [own0, missing0, wall0] = [clock.now(), missing.now(), performance.now()]
    sleeper.kill('SIGKILL')
    await new Promise((resolve) => sleeper.once('exit', resolve))
    await sleep(200)
    const [own, missed, wall] = [clock.now() - own0, missing.now() - missing0, performance.now() - wall0]
    expect(clock.measured).toBe(false)
    expect(Math.abs(own - wall)).toBeLessThan(20)
    expect(Math.abs(missed - wall)).toBeLessThan(5)
  })
})

describe(`starved by ${HOGS} CPU hogs${pinning ? ' on its CPU' : ''}`, () => {
  beforeAll(async () => {
    for (let i = 0; i < HOGS; i++) node(SPIN)
  })

  test('a spinning process accrues far less own time than wall time; a sleeping one beside it all of it', async () => {
    const [spinner, sleeper] = await Promise.all([ready(SPIN), ready(SLEEP)])
    await sleep(100) // the sleeper's first wait ends (it prints, then sleeps)
    const [spun, slept] = await measure([pidOf(spinner), pidOf(sleeper)], 1500)
    expect(spun!.own / spun!.wall, `spinner: ${JSON.stringify(spun)}`).toBeLessThan(0.6)
    expect(slept!.own / slept!.wall, `sleeper: ${JSON.stringify(slept)}`).toBeGreaterThan(0.95)
  })

  test('the process clock counts the waiting of every thread: a starved worker thread, not only the main one', async () => {
    // The main thread sleeps (it accrues own time at wall speed); a worker thread spins, starved by the hogs.
    const script = `import { ownClock, processClock } from ${JSON.stringify(OWN_TIME)}
      import { Worker } from 'node:worker_threads'
      new Worker('for (;;) {}', { eval: true }).unref()
      setTimeout(() => {
        const [main, all, wall0] = [ownClock(), processClock(), performance.now()]
        const [main0, all0] = [main.now(), all.now()]
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 800)
        const wall = performance.now() - wall0
        console.log(JSON.stringify({ main: (main.now() - main0) / wall, all: (all.now() - all0) / wall }))
        process.exit(0)
      }, 200)`
    const child = node(script)
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise((resolve) => child.once('exit', resolve))
    const ratio = JSON.parse(out) as { main: number; all: number }
    expect(ratio.main, JSON.stringify(ratio)).toBeGreaterThan(0.9)
    expect(ratio.all, JSON.stringify(ratio)).toBeLessThan(0.6)
  })

  test('afterOwnTime fires once the own time has passed, not the wall time, in a process kept busy', async () => {
    // Busy in slices, as the harness is while a case's promise is pending: the timer gets to run.
    const script = `import { afterOwnTime, ownClock } from ${JSON.stringify(OWN_TIME)}
      const clock = ownClock()
      const [own0, wall0] = [clock.now(), performance.now()]
      let done = false
      afterOwnTime(200, () => {
        done = true
        console.log(JSON.stringify({ own: clock.now() - own0, wall: performance.now() - wall0 }))
      })
      const work = () => { const t = performance.now(); while (performance.now() - t < 5) {} if (!done) setImmediate(work) }
      work()`
    const busy = node(script)
    let out = ''
    busy.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise((resolve) => busy.once('exit', resolve))
    const fired = JSON.parse(out) as { own: number; wall: number }
    // A wall-time timer fires at 200 ms of wall time; own time may read ahead by one wait for the CPU.
    expect(fired.wall, JSON.stringify(fired)).toBeGreaterThan(2 * 200)
    expect(fired.own, JSON.stringify(fired)).toBeGreaterThan(200 - WAIT_SLACK_MS)
  })

  test('afterOwnTime on the process clock fires at its wall-time bound, however starved the process', async () => {
    const script = `import { afterOwnTime, processClock } from ${JSON.stringify(OWN_TIME)}
      import { Worker } from 'node:worker_threads'
      new Worker('for (;;) {}', { eval: true }).unref()
      const wall0 = performance.now()
      afterOwnTime(60_000, () => {
        console.log(JSON.stringify({ wall: performance.now() - wall0 }))
        process.exit(0)
      }, { clock: processClock(), atMostMs: 300 })`
    const child = node(script)
    let out = ''
    child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()))
    await new Promise((resolve) => child.once('exit', resolve))
    const fired = JSON.parse(out) as { wall: number }
    expect(fired.wall, JSON.stringify(fired)).toBeGreaterThanOrEqual(300)
    expect(fired.wall, JSON.stringify(fired)).toBeLessThan(5_000)
  })
})
