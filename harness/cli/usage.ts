/** Help text and argument errors. */
export class UsageError extends Error {}

export const USAGE = `toolreg — property-based conformance kit for AI-agent tool registries

Usage:
  toolreg certify [--adapter <module>] [--runs N] [--seed N] [--clause ID]... [--strict] [--case-timeout <time>]
                  [--workers N] [--time-budget <time>] [--max-heap MB]
                  [--json <file>] [--junit <file>] [--markdown <file>] [--html <file>] [--badge <file>]
  toolreg merge <shard-report.json>... [--json <file>] [--junit <file>] [--markdown <file>] [--html <file>] [--badge <file>]
  toolreg certify --command "<server command>" [--validate-protocol] [same options]
  toolreg replay <counterexample.json> [--adapter <module> | --command "<server command>"]
  toolreg smoke [--adapter <module> | --command "<server command>"]
  toolreg check-tool <tool-module> [--export name] [--runs N] [--seed N] [--time-limit <time>] [--stress]
                     [--replay <case.json>] [--json <file>] [--junit <file>] [--markdown <file>]
  toolreg check-mcp [--state <path>] [--reuse-server] [--tool name]... [--runs N] [--seed N] [--time-limit <time>]
                    [--call-timeout <time>] [--replay <case.json>] [--json <file>] [--junit <file>] [--markdown <file>]
                    -- <server command> [args…]
  toolreg peers [--runs N] [--seed N] [--baseline] [--readme] [--library <name>]... [--out <file>]
  toolreg clauses

Commands:
  certify   Check every clause of the contract against a registry (default: the bundled reference)
            and print the clause matrix. Exit 0 when every applicable R clause passes (S too with
            --strict), 1 when a clause fails, 2 on a harness or adapter error. The last line is
            the gate verdict: "gate: pass", "gate: FAIL — new failure FIN-2" or "gate: ERROR".
  peers     Certify the shipped peer adapters (AI SDK, Agents JS, MCP SDK, LangGraph ToolNode, Mastra)
            and write the clause × library@version matrix to reports/peer-matrix.md (--readme: into
            reference-impl/adapters/peers/README.md too). --baseline gates on each library's known-failures.yaml.
  merge     Merge the JSON reports of shards (--shard i/n) into one report, in any format. Every
            shard of the split must be given, each once: a missing or repeated one is exit 2.
  replay    Re-run exactly the scenario of a saved counterexample, on the adapter module or server
            command the file records (--adapter/--command: another one of the same adapter name).
            Exit 0 if it now passes, 1 if it still fails, 2 if the file or adapter is unusable.
  smoke     Check the adapter's wiring (create, register, one call, dispose) before certifying.
  check-tool  Check the claims one tool makes (CLM-1..4: parent-owned state, isConcurrencySafe,
            timeoutMs, pure classifier and presenters) by calling it with generated arguments.
            Exit 0 when no claim is refuted, 1 when one is, 2 when the module is unusable.
  check-mcp Check the claims an MCP server's tools make in their annotations (CLM-5..8:
            readOnlyHint alone and together, idempotentHint, destructiveHint: false): starts the
            stdio server given after -- with the MCP SDK client, calls its tools with arguments
            generated from their inputSchema in a fresh sandbox directory ({sandbox} in the command
            stands for it), and compares what the server shows between calls. Exit 0 when no claim
            is refuted, 1 when one is, 2 when the server is unusable.
  clauses   List every clause with its level and profile.

Options:
  --adapter <module>  Adapter module (TypeScript or JavaScript) whose default export is a
                      ConformanceAdapter. Default: the bundled reference registry.
  --command "<cmd>"   Certify a registry in another process (any language): the command starts a
                      server speaking the JSON-lines protocol on stdin/stdout
                      (harness/protocol/README.md). Identity and profiles come from its handshake.
  --validate-protocol Check every protocol message against its JSON Schema (slower; for debugging a server).
  --runs N            Generated cases per property (default 100; check-mcp 20 per claim).
  --seed N            Seed for generation (default: random, printed in the report).
  --clause ID         Check only this clause (repeatable).
  --json <file>       Write the report as JSON (validated against reports/schema/).
  --junit <file>      Write JUnit XML: one testcase per clause.
  --markdown <file>   Write a Markdown summary for a pull-request comment.
  --html <file>       Write a self-contained HTML report with failure timelines.
  --badge <file>      Write a shields.io endpoint badge JSON.
  --strict            Fail on S (recommended) clauses too.
  --clauses A,B,...   The same, as one comma-separated list.
  --case-timeout <time>  How long the implementation may block the event loop (a synchronous
                      loop) before its child process is killed and the clause fails (default 5s),
                      counted in the child's own time: time it waited for a CPU on a loaded
                      machine does not count (Linux; elsewhere wall time). Once a clause blocked,
                      the rest of its family (PRE, FIN, …) is judged from it, and every other
                      clause gets 2s.
  --workers N         Child processes running the implementation in parallel (default: 2, or
                      fewer cores; one per 150 cases of the clauses named). The report is the
                      same whatever N.
  --time-budget <time>  The clauses' budget (default 30m), from when the adapter has loaded: those
                      without a verdict when it runs out are reported untested (budget), the
                      report is still written, and the run exits 2.
  --max-heap MB       Heap cap of each child running the implementation (default 1024); a child
                      that outgrows it fails the clause it was on.
  --shard i/n         Run the i-th of n deterministic shares of the properties (merge with toolreg merge).
  --corpus <dir>      The regression corpus (default reports/corpus): its cases run first, and every
                      new counterexample is added. --no-corpus turns it off.
  --coverage          Measure which lines of the implementation the suites exercised (summary in
                      the JSON and HTML reports, full output under reports/coverage/).
  --coverage-include <glob>  What counts as the implementation (repeatable; default: the
                      adapter module's folder, or reference-impl/ for the bundled reference).
  --duration <time>   Campaign mode: repeat with fresh seeds until the time (90s, 10m, 1h) is up.
  --baseline <file>   Known failures (YAML or JSON: known-failures: [{clause, reason}]). Listed
                      clauses may fail without failing the run; a listed clause that passes is
                      stale and fails the run.
  --export <name>     check-tool: the module's export holding the tool (default: default export).
  --time-limit <time> check-tool, check-mcp: wall-clock budget per claim (default 60s; check-mcp
                      30s); a claim that runs out is reported unknown.
  --stress            check-tool: run CLM-2's concurrent calls under real timers with random
                      delays (so the tool's own I/O interleaves), not fast-check's scheduler.
  --replay <file>     check-tool, check-mcp: re-run one saved refuting case (exit 1 while it still refutes).
  --state <path>      check-mcp: the file or directory holding the server's state ({sandbox} allowed;
                      default: the sandbox). It is read between calls and put back before each trial.
  --reuse-server      check-mcp: the server keeps no state but the named state, so one process serves
                      every trial (default: a fresh process whenever a trial may have changed it).
  --tool <name>       check-mcp: check only this tool (repeatable).
  --call-timeout <time>  check-mcp: how long one call may take (default 2s); a trial whose call
                      takes longer is skipped and counted.
  -h, --help          Show this help.
`
