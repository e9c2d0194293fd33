/** The cost figures as `npm run sim` prints them, with the assumptions behind them. */
import type { RunCost, Spread } from './cost';

const ms = (x: number | null) => (x === null ? '-' : `${Math.round(x * 100) / 100} ms`);
const spreadText = (s: Spread) => `p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} over ${s.count} record(s)`;
const num = (x: number | null) => (x === null ? '-' : String(Math.round(x * 100) / 100));

export const COST_ASSUMPTIONS =
  'virtual time of the model: network latency per link and each application’s processingMs; no disk, CPU, wire batching or compression — not a benchmark of a real cluster';

export function renderCost(c: RunCost, esc: (s: string) => string = (s) => s): string {
  const lines = [`Cost (${COST_ASSUMPTIONS}):`];
  for (const k of c.consumers) {
    lines.push(`  ${esc(k.consumer)} (${k.isolationLevel}): send() → visible (from its first poll if later) ${spreadText(k.latency)}`);
    if (k.lsoWait) lines.push(`    behind the LSO: ${spreadText(k.lsoWait)}`);
  }
  lines.push(
    `  committed records: ${c.committedRecords} in ${c.windowMs} ms virtual (the whole run) = ${num(c.committedPerSecond)} per virtual second`,
    `  write-path requests: ${c.writePathRequests} (${num(c.writePathRequestsPerCommittedRecord)} per committed record), of which transaction requests ${c.transactionRequests} (${num(c.transactionRequestsPerCommittedRecord)} per committed record)`,
    `  requests by RPC: ${Object.entries(c.requests)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  return lines.join('\n');
}
