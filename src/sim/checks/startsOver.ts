/**
 * Step labels after which a process's clients start over (no positions, a new producer): a crash or
 * a restart fault of the process, an application's own `restart` of its producer, and each actor's
 * `boot`. The reader and writer checks (polls.ts, sends.ts) begin a new count at them.
 */
export const STARTS_OVER: ReadonlySet<string> = new Set(['crash', 'restart', 'boot']);
