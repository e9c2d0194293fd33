/**
 * Break it, headless: search the fault space of a scenario for the shortest schedule that breaks a
 * property (docs/search.md).
 *
 *   npm run search -- <file.json | preset-id> [--property no-duplicates|nothing-lost|no-loss|processed-once|no-stall|any]
 *     [--at <topic|reader|application|sink>] [--stall-ms N] [--max-faults K] [--faults crash,pause,drop,delay,duplicate]
 *     [--points-only] [--background] [--processes a,b] [--max-schedules N] [--seconds S] [--random N] [--seed N]
 *     [--keep-faults] [--base-url URL] [--json]
 *
 * A preset without --property searches its own goal (property and fault class, presetGoals.ts).
 * Exit codes: 0 no counterexample, 1 a counterexample, 2 bad arguments or an invalid scenario.
 */
import { readFileSync } from 'node:fs';
import { findPreset, PRESETS } from '../src/sim/presets';
import { parseJsonText } from '../src/sim/scenario/jsonText';
import { FAULT_KINDS, type FaultKind, type FaultSpaceOptions } from '../src/sim/search/faultSpace';
import { goalFor } from '../src/sim/search/presetGoals';
import { describeProperty, PROPERTY_IDS, type Property, type PropertyId } from '../src/sim/search/property';
import { brokeText, counterexampleLink, faultLines, noCounterexampleText } from '../src/sim/search/report';
import { prepareBase, type SearchBase, SearchBaseError } from '../src/sim/search/runner';
import { type SearchConfig, type SearchResult, search } from '../src/sim/search/search';
import { escapeJsonForTerminal, escapeForTerminal as t } from '../src/sim/trace/terminalText';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

const USAGE =
  'usage: npm run search -- <file.json | preset-id> [--property <p>] [--at <subject>] [--max-faults K] [--faults kinds] [--json]';
const args = process.argv.slice(2);
const VALUED = new Set([
  '--property',
  '--at',
  '--stall-ms',
  '--max-faults',
  '--faults',
  '--processes',
  '--max-schedules',
  '--seconds',
  '--random',
  '--seed',
  '--base-url',
]);
const opts = new Map<string, string>();
const flags = new Set<string>();
let target: string | undefined;
for (let i = 0; i < args.length; i++) {
  const a = args[i] as string;
  if (VALUED.has(a)) {
    const v = args[++i];
    if (v === undefined) fail(`${a} needs a value\n${USAGE}`);
    opts.set(a, v);
  } else if (a.startsWith('--')) flags.add(a);
  else if (target === undefined) target = a;
  else fail(`unexpected argument ${t(a)}\n${USAGE}`);
}
const KNOWN_FLAGS = new Set(['--json', '--points-only', '--background', '--keep-faults']);
for (const f of flags) if (!KNOWN_FLAGS.has(f)) fail(`unknown option ${t(f)}\n${USAGE}`);
if (!target) fail(USAGE);

const int = (name: string, min: number): number | undefined => {
  const raw = opts.get(name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) fail(`${name} needs a whole number ≥ ${min}`);
  return n;
};

let input: unknown;
let presetId: string | undefined;
if (target.endsWith('.json')) {
  let text: string;
  try {
    text = readFileSync(target, 'utf8');
  } catch (e) {
    fail(`cannot read ${t(target)}: ${t((e as Error).message)}`);
  }
  const parsed = parseJsonText(text);
  if (!parsed.ok) fail(`The scenario is not valid: ${t(parsed.problem.en)}`);
  input = parsed.value;
} else {
  const preset = findPreset(target);
  if (!preset) fail(`unknown preset "${t(target)}". Known presets:\n  ${PRESETS.map((p) => p.id).join('\n  ')}`);
  input = preset.scenario;
  presetId = preset.id;
}

const goal = goalFor(presetId);
let base: SearchBase;
try {
  // a preset whose scripted faults are its workload keeps them (presetGoals.ts, keepFaults)
  base = prepareBase(input, { keepFaults: flags.has('--keep-faults') || goal.keepFaults === true });
} catch (e) {
  if (e instanceof SearchBaseError) fail(`The scenario is not valid: ${t(e.message)}`);
  throw e;
}

const propId = opts.get('--property');
if (propId !== undefined && !PROPERTY_IDS.includes(propId as PropertyId))
  fail(`--property must be one of ${PROPERTY_IDS.join(', ')}, not ${t(propId)}`);
const stallMs = int('--stall-ms', 0);
const property: Property =
  propId === undefined
    ? { ...goal.property, ...(opts.has('--at') ? { at: opts.get('--at') } : {}), ...(stallMs !== undefined ? { stallMs } : {}) }
    : {
        id: propId as PropertyId,
        ...(opts.has('--at') ? { at: opts.get('--at') as string } : {}),
        ...(stallMs !== undefined ? { stallMs } : {}),
      };
const useGoal = propId === undefined && !opts.has('--faults');
let kinds: readonly FaultKind[] | undefined = useGoal ? goal.kinds : undefined;
if (opts.has('--faults')) {
  const list = (opts.get('--faults') as string).split(',').filter(Boolean);
  for (const k of list) if (!FAULT_KINDS.includes(k as FaultKind)) fail(`--faults takes ${FAULT_KINDS.join(', ')}, not ${t(k)}`);
  kinds = list as FaultKind[];
}
const space: FaultSpaceOptions = {
  ...(kinds ? { kinds } : {}),
  ...(opts.has('--processes')
    ? { processes: (opts.get('--processes') as string).split(',') }
    : useGoal && goal.processes
      ? { processes: goal.processes }
      : {}),
  timing: flags.has('--points-only') ? 'points' : 'all',
  background: flags.has('--background'),
};
const seconds = int('--seconds', 1);
const maxSchedules = int('--max-schedules', 1);
const config: SearchConfig = {
  property,
  maxFaults: int('--max-faults', 0) ?? 1,
  space,
  ...(maxSchedules !== undefined ? { maxSchedules } : {}),
  randomSchedules: int('--random', 0) ?? 0,
  seed: int('--seed', 0) ?? 1,
};

const json = flags.has('--json');
const started = performance.now();
const deadline = seconds !== undefined ? started + seconds * 1000 : Number.POSITIVE_INFINITY;
const control = { stop: false };
const it = search(base, config, control);
let result: SearchResult;
let lastReport = started;
for (;;) {
  const n = it.next();
  if (n.done) {
    result = n.value;
    break;
  }
  const now = performance.now();
  if (now > deadline) control.stop = true;
  if (!json && process.stderr.isTTY && now - lastReport > 1000 && n.value.type !== 'done') {
    lastReport = now;
    const p = n.value.progress;
    process.stderr.write(`\r  k=${p.k}: ${p.tried} schedules, ${Math.round(p.tried / ((now - started) / 1000))}/s   `);
  }
}
const seconds_ = (performance.now() - started) / 1000;
if (!json && process.stderr.isTTY) process.stderr.write('\r\x1b[K');
const ce = result.counterexample;
const baseUrl = opts.get('--base-url') ?? 'http://localhost:5173/';
const link = ce ? baseUrl + counterexampleLink(base, ce, property) : null;
if (json) {
  const out = {
    scenario: base.resolved.scenario.id ?? null,
    property,
    space,
    maxFaults: config.maxFaults,
    tried: result.tried,
    collapsed: result.collapsed,
    completeUpTo: result.completeUpTo,
    budgetExhausted: result.budgetExhausted || control.stop,
    seconds: Math.round(seconds_ * 100) / 100,
    counterexample: ce
      ? { k: ce.k, faults: ce.faults, steps: ce.steps, violation: ce.violation, traceHash: ce.traceHash, via: ce.via, link }
      : null,
    answer: ce ? brokeText(ce) : noCounterexampleText(result),
  };
  process.stdout.write(`${escapeJsonForTerminal(JSON.stringify(out, null, 2))}\n`);
} else {
  const lines = [`Break it: ${t(base.resolved.scenario.id ?? target)} — ${t(describeProperty(property))}`];
  lines.push(
    `  faults: ${(space.kinds ?? FAULT_KINDS).join(', ')}${space.timing === 'points' ? ' (named points only)' : ''}; bound k ≤ ${config.maxFaults}`,
  );
  if (ce) {
    lines.push(
      `Counterexample with ${ce.k} fault${ce.k === 1 ? '' : 's'} (${ce.via}; ${result.tried} schedules in ${seconds_.toFixed(1)} s):`,
    );
    for (const l of faultLines(ce)) lines.push(`  ${t(l)}`);
    if (ce.k === 0) lines.push('  (the configuration breaks it with no fault at all)');
    lines.push(`  broke: ${t(brokeText(ce))}`);
    lines.push(`  open: ${t(link ?? '')}`);
  } else lines.push(`${t(noCounterexampleText(result))} — ${seconds_.toFixed(1)} s`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
process.exit(ce ? 1 : 0);
