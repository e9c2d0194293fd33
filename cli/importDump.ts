/**
 * `npm run sim -- --import <dump.txt> …`: reads kafka-dump-log.sh output (one or more files; a
 * partition's segments are joined into one lane) and prints what the analysis finds — the LSO and
 * what pins it, open transactions as find-hanging lists them, sequence gaps, epoch changes, events
 * stored more than once — or, with --json, the analysis as JSON. Malformed input: the line number and
 * what was expected, exit code 2. Everything from the input is escaped for the terminal.
 */
import { readFileSync } from 'node:fs';
import { analyzeDump } from '../src/sim/dump/analyze';
import { parseDumps } from '../src/sim/dump/parse';
import { describeIssue, renderDumpReport } from '../src/sim/dump/text';
import { escapeJsonForTerminal, escapeForTerminal as t } from '../src/sim/trace/terminalText';

export function importDumps(files: readonly string[], json: boolean): never {
  if (!files.length) {
    process.stderr.write('usage: npm run sim -- --import <dump.txt> [more dumps…] [--json]\n');
    process.exit(2);
  }
  const sources: { name: string; text: string }[] = [];
  for (const f of files) {
    try {
      sources.push({ name: f, text: readFileSync(f, 'utf8') });
    } catch (e) {
      process.stderr.write(`cannot read ${t(f)}: ${t((e as Error).message)}\n`);
      process.exit(2);
    }
  }
  const r = parseDumps(sources);
  if (!r.ok) {
    process.stderr.write(
      `The dump cannot be read:\n${r.errors.map((e) => `  ${t(describeIssue(e))}\n    found: ${t(e.text)}`).join('\n')}\n`,
    );
    process.exit(2);
  }
  const a = analyzeDump(r.dump);
  if (json) {
    const { lanes, ...rest } = a;
    const out = {
      ...rest,
      lanes: lanes.map(({ row, ...l }) => ({
        ...l,
        logStartOffset: row.logStartOffset,
        highWatermark: row.highWatermark,
        lastStableOffset: row.lastStableOffset,
        logEndOffset: row.logEndOffset,
        records: row.records,
      })),
    };
    process.stdout.write(`${escapeJsonForTerminal(JSON.stringify(out, null, 2))}\n`);
  } else process.stdout.write(`${renderDumpReport(a, t)}\n`);
  process.exit(0);
}
