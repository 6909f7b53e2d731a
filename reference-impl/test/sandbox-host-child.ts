// Runs the run_code programs given as JSON on argv, one after another, in this process, and prints
// each outcome as a JSON line ({ isError, code } or { isError, value }); then lets late sub-call replies arrive and
// prints `alive`. sandbox-lifetimes.test.ts runs it in a child process, so that a crash of the
// host is an exit code to assert on rather than the end of the test run.
import { runProgram, sandboxRegistry } from './helpers-sandbox.js'

const programs = JSON.parse(process.argv[2] ?? '[]') as string[]
const { registry } = sandboxRegistry(2_000)
for (const code of programs) {
  const result = await runProgram(registry, code)
  console.log(JSON.stringify(result.isError ? { isError: true, code: result.error.code ?? null } : { isError: false, value: result.value }))
}
await new Promise((resolve) => setTimeout(resolve, 500))
console.log('alive')
