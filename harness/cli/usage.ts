/** Help text and argument errors. */
export class UsageError extends Error {}

export const USAGE = `toolreg — property-based conformance kit for AI-agent tool registries

Usage:
  toolreg certify [--adapter <module>] [--runs N] [--seed N] [--clause ID]... [--json <file>] [--strict]
  toolreg replay <counterexample.json> [--adapter <module>]
  toolreg smoke [--adapter <module>]
  toolreg clauses

Commands:
  certify   Check every clause of the contract against a registry (default: the bundled reference)
            and print the clause matrix. Exit 0 when every applicable R clause passes (S too with
            --strict), 1 when a clause fails, 2 on a harness or adapter error.
  replay    Re-run exactly the scenario of a saved counterexample. Exit 0 if it now passes, 1 if it
            still fails, 2 if the file or adapter is unusable.
  smoke     Check the adapter's wiring (create, register, one call, dispose) before certifying.
  clauses   List every clause with its level and profile.

Options:
  --adapter <module>  Adapter module (TypeScript or JavaScript) whose default export is a
                      ConformanceAdapter. Default: the bundled reference registry.
  --runs N            Generated cases per property (default 100).
  --seed N            Seed for generation (default: random, printed in the report).
  --clause ID         Check only this clause (repeatable).
  --json <file>       Write the report as JSON.
  --strict            Fail on S (recommended) clauses too.
  -h, --help          Show this help.
`
