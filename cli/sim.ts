/**
 * Headless runner: npm run sim -- <file.json | preset-id> [--json] [--until <step>] [--max-steps <n>] [--internal] [--chart <actorId>]
 *                  npm run sim -- <file.json | preset-id> [--until <step>] --tool "<kafka tool command line>"
 *                  npm run sim -- --list
 * --tool prints what an operator's read-only tool would at the step (src/sim/tools/toolCommand.ts:
 * kafka-transactions.sh list / describe / describe-producers / find-hanging, kafka-topics.sh --describe,
 * kafka-consumer-groups.sh --list / --describe).
 * --max-steps overrides the scenario's run.maxSteps; a run that reaches it says so on stderr.
 *                  npm run sim -- --import <dump.txt> [more dumps…] [--json]   (kafka-dump-log.sh output)
 * Exit codes: 0 ok, 2 unknown preset / invalid scenario / bad arguments.
 *
 * A scenario file may come from anyone: everything printed from it (and from the command line) goes
 * through escapeForTerminal, so a key or a title cannot send escape sequences to the terminal.
 */
import { readFileSync } from 'node:fs';
import { actorChart, actorChartText } from '../src/sim/charts/actorChart';
import { compareRuns, renderComparison } from '../src/sim/compare/compare';
import { costOfRun } from '../src/sim/cost/costOfRun';
import { renderCost } from '../src/sim/cost/costText';
import { findPreset, PRESETS } from '../src/sim/presets';
import { maxStepsNotice, runResolved, stateAt, withMaxSteps } from '../src/sim/run';
import { LIMITS } from '../src/sim/scenario/schema';
import { parseScenarioJson, validateScenario } from '../src/sim/scenario/validate';
import { parseToolCommand, runToolCommand, splitCommandLine, TOOL_USAGE } from '../src/sim/tools/toolCommand';
import { renderText } from '../src/sim/trace/dumpLog';
import { summarize } from '../src/sim/trace/summary';
import { escapeJsonForTerminal, escapeLayoutForTerminal, escapeForTerminal as t } from '../src/sim/trace/terminalText';
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
const maxIdx = args.indexOf('--max-steps');
let maxSteps: number | undefined;
if (maxIdx >= 0) {
  const n = Number(args[maxIdx + 1]);
  if (!Number.isInteger(n) || n < 1 || n > LIMITS.maxSteps)
    fail(`--max-steps needs a whole number from 1 to ${LIMITS.maxSteps.toLocaleString('en')}`);
  maxSteps = n;
}
const chartIdx = args.indexOf('--chart');
const chartActor = chartIdx >= 0 ? args[chartIdx + 1] : undefined;
if (chartIdx >= 0 && (!chartActor || chartActor.startsWith('--')))
  fail('--chart needs an actor id (e.g. txn-coordinator, orders-service.producer)');
const toolIdx = args.indexOf('--tool');
const toolLine = toolIdx >= 0 ? args[toolIdx + 1] : undefined;
const toolUsage = `--tool takes one quoted command line:\n  ${TOOL_USAGE.join('\n  ')}`;
if (toolIdx >= 0 && (!toolLine || toolLine.startsWith('--'))) fail(toolUsage);
const tool = toolLine === undefined ? null : parseToolCommand(splitCommandLine(toolLine));
if (tool && !tool.ok) fail(`${t(tool.error)}\n${toolUsage}`);
const compareIdx = args.indexOf('--compare');
const target = args.find(
  (a, i) =>
    !a.startsWith('--') &&
    !(compareIdx >= 0 && i === compareIdx + 1) &&
    !(untilIdx >= 0 && i === untilIdx + 1) &&
    !(maxIdx >= 0 && i === maxIdx + 1) &&
    !(chartIdx >= 0 && i === chartIdx + 1) &&
    !(toolIdx >= 0 && i === toolIdx + 1),
);
if (!target)
  fail(
    'usage: npm run sim -- <file.json | preset-id> [--json] [--until <step>] [--max-steps <n>] [--internal] [--chart <actorId>]\n       npm run sim -- <file.json | preset-id> [--until <step>] --tool "<kafka tool command line>"\n       npm run sim -- --list',
  );

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
  if (maxSteps !== undefined && validation.ok) validation = validateScenario(withMaxSteps(validation.resolved.scenario, maxSteps));
} else {
  const preset = findPreset(target);
  if (!preset) fail(`unknown preset "${t(target)}". Known presets:\n  ${PRESETS.map((p) => p.id).join('\n  ')}`);
  validation = validateScenario(maxSteps === undefined ? preset.scenario : withMaxSteps(preset.scenario, maxSteps));
}
if (!validation.ok) fail(`The scenario is not valid:\n${validation.errors.map((e) => `  ${t(e.path)}: ${t(e.message)}`).join('\n')}`);

const trace = runResolved(validation.resolved);
if (chartActor !== undefined) {
  // the actor's statechart (and each transactional.id's / group's) as Mermaid, its state as of --until
  const chart = actorChart(trace, stateAt(trace, until ?? trace.steps.length), chartActor);
  if (!chart) fail(`no actor "${t(chartActor)}". Actors:\n  ${trace.built.specs.map((s) => t(s.id)).join('\n  ')}`);
  process.stdout.write(`${actorChartText(chart).split('\n').map(t).join('\n')}\n`);
  process.exit(0);
}
if (tool?.ok) {
  // the tool's output at --until (the end by default), as the page shows it on a selection
  const out = runToolCommand(tool.command, stateAt(trace, until ?? trace.steps.length), validation.resolved.scenario);
  const notice = maxStepsNotice(trace);
  if (notice) process.stderr.write(`${t(notice)}\n`);
  process.stdout.write(`${escapeLayoutForTerminal(out)}\n`);
  process.exit(0);
}
const summary = summarize(trace, until ?? trace.steps.length);
const notice = maxStepsNotice(trace);
if (notice) process.stderr.write(`${t(notice)}\n`);
const cost = costOfRun(trace, summary);
process.stdout.write(
  json
    ? `${escapeJsonForTerminal(JSON.stringify({ ...summary, cost }, null, 2))}\n`
    : `${renderText(summary, { internal })}\n\n${renderCost(cost, t)}\n`,
);
