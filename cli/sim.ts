/**
 * Headless runner: npm run sim -- <file.json | preset-id> [--json] [--until <step>] [--internal]
 *                  npm run sim -- --list
 *                  npm run sim -- --import <dump.txt> [more dumps…] [--json]   (kafka-dump-log.sh output)
 * Exit codes: 0 ok, 2 unknown preset / invalid scenario / bad arguments.
 *
 * A scenario file may come from anyone: everything printed from it (and from the command line) goes
 * through escapeForTerminal, so a key or a title cannot send escape sequences to the terminal.
 */
import { readFileSync } from 'node:fs';
import { compareRuns, renderComparison } from '../src/sim/compare/compare';
import { costOfRun } from '../src/sim/cost/costOfRun';
import { renderCost } from '../src/sim/cost/costText';
import { findPreset, PRESETS } from '../src/sim/presets';
import { runResolved } from '../src/sim/run';
import { parseScenarioJson, validateScenario } from '../src/sim/scenario/validate';
import { renderText } from '../src/sim/trace/dumpLog';
import { summarize } from '../src/sim/trace/summary';
import { escapeJsonForTerminal, escapeForTerminal as t } from '../src/sim/trace/terminalText';
import { importDumps } from './importDump';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const args = process.argv.slice(2);
if (args.includes('--list')) {
  for (const p of PRESETS) process.stdout.write(`${t(p.id)}\n  ${t(p.title)}\n  Q: ${t(p.question)}\n  Expected: ${t(p.expected)}\n\n`);
  process.exit(0);
}
const json = args.includes('--json');
if (args.includes('--import'))
  importDumps(
    args.filter((a) => !a.startsWith('--')),
    json,
  );
const internal = args.includes('--internal');
const untilIdx = args.indexOf('--until');
let until: number | undefined;
if (untilIdx >= 0) {
  const n = Number(args[untilIdx + 1]);
  if (!Number.isInteger(n) || n < 0) fail('--until needs a step number (a whole number ≥ 0)');
  until = n;
}
const compareIdx = args.indexOf('--compare');
const target = args.find(
  (a, i) => !a.startsWith('--') && !(untilIdx >= 0 && i === untilIdx + 1) && !(compareIdx >= 0 && i === compareIdx + 1),
);
if (!target) fail('usage: npm run sim -- <file.json | preset-id> [--json] [--until <step>] [--internal]\n       npm run sim -- --list');

function load(target: string): ReturnType<typeof validateScenario> {
  if (!target.endsWith('.json')) {
    const preset = findPreset(target);
    if (!preset) fail(`unknown preset "${t(target)}". Known presets:\n  ${PRESETS.map((p) => p.id).join('\n  ')}`);
    return validateScenario(preset.scenario);
  }
  try {
    return parseScenarioJson(readFileSync(target, 'utf8'));
  } catch (e) {
    fail(`cannot read ${t(target)}: ${t((e as Error).message)}`);
  }
}

// A/B: npm run sim -- A.json --compare B.json [--json]
if (compareIdx >= 0) {
  const other = args[compareIdx + 1];
  if (!other || other.startsWith('--')) fail('--compare needs a second scenario (file.json or preset id)');
  const runs = [target, other].map((name) => {
    const v = load(name);
    if (!v.ok) fail(`${t(name)} is not valid:\n${v.errors.map((e) => `  ${t(e.path)}: ${t(e.message)}`).join('\n')}`);
    const trace = runResolved(v.resolved);
    const summary = summarize(trace);
    return { summary, cost: costOfRun(trace, summary) };
  }) as [
    { summary: ReturnType<typeof summarize>; cost: ReturnType<typeof costOfRun> },
    { summary: ReturnType<typeof summarize>; cost: ReturnType<typeof costOfRun> },
  ];
  const c = compareRuns(runs[0], runs[1]);
  process.stdout.write(json ? `${escapeJsonForTerminal(JSON.stringify(c, null, 2))}\n` : `${renderComparison(c, [target, other], t)}\n`);
  process.exit(0);
}

let validation: ReturnType<typeof validateScenario>;
if (target.endsWith('.json')) {
  let text: string;
  try {
    text = readFileSync(target, 'utf8');
  } catch (e) {
    fail(`cannot read ${t(target)}: ${t((e as Error).message)}`);
  }
  validation = parseScenarioJson(text);
} else {
  const preset = findPreset(target);
  if (!preset) fail(`unknown preset "${t(target)}". Known presets:\n  ${PRESETS.map((p) => p.id).join('\n  ')}`);
  validation = validateScenario(preset.scenario);
}
if (!validation.ok) fail(`The scenario is not valid:\n${validation.errors.map((e) => `  ${t(e.path)}: ${t(e.message)}`).join('\n')}`);

const trace = runResolved(validation.resolved);
const summary = summarize(trace, until ?? trace.steps.length);
const cost = costOfRun(trace, summary);
process.stdout.write(
  json
    ? `${escapeJsonForTerminal(JSON.stringify({ ...summary, cost }, null, 2))}\n`
    : `${renderText(summary, { internal })}\n\n${renderCost(cost, t)}\n`,
);
