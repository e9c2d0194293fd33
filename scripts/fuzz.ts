/**
 * `npm run fuzz`: the long version of the property tests. Draws random scenarios from every family
 * (see tests/properties/families.ts) and hostile inputs for the validator and the share-link decoder, for a number of cases or
 * minutes, and checks every invariant on each run.
 *
 *   npm run fuzz -- [--minutes 10] [--runs 100000] [--seed <n>]
 *                   [--family general|transactions|idempotence|streams-faults|replication|replication-transactions|streams-liveness|consumer-liveness|validator|links]
 *                   [--keep-going] [--replay <family>:<seed>:<path>]
 *
 * On a failure it prints the seed and fast-check's path (to replay it), the broken invariants, and
 * writes the shrunk scenario to fuzz-failures/<name>.json (run it with `npm run sim -- <file>`) and
 * prints a share link that opens it in the app.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { checkInvariants, formatViolations } from '../src/sim/checks/invariants';
import { runScenario } from '../src/sim/run';
import { DEFAULT_LINK_VIEW, decodeLink, encodeLink } from '../src/sim/scenario/link';
import type { Scenario } from '../src/sim/scenario/schema';
import { parseScenarioJson, validateScenario } from '../src/sim/scenario/validate';
import { runFastResolved } from '../src/sim/trace/fastRun';
import { CONTROL_CHARACTERS, POLLUTION_KEYS, pathsOf, randomBytesText, randomJsonText, setAt, WRONG_VALUES } from '../tests/fuzz/mutations';
import { scenarioArb } from '../tests/properties/arbitraries';
import { FAMILIES, type FamilyName } from '../tests/properties/families';
import { LIVENESS_FAMILIES, type LivenessCase, livenessProperty } from '../tests/properties/liveness';
import { modelProperty } from '../tests/properties/modelProperty';
import { formatRuleViolations, producerRuleViolations } from '../tests/properties/producerRules';

interface Options {
  minutes: number;
  runs: number;
  seed: number;
  families: string[];
  keepGoing: boolean;
  replay: { family: string; seed: number; path: string } | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    minutes: 10,
    runs: Number.POSITIVE_INFINITY,
    seed: Date.now() % 2147483647,
    families: [...Object.keys(FAMILIES), ...Object.keys(LIVENESS_FAMILIES), 'validator', 'links'],
    keepGoing: false,
    replay: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i] ?? '';
    if (a === '--minutes') o.minutes = Number(next());
    else if (a === '--runs') o.runs = Number(next());
    else if (a === '--seed') o.seed = Number(next());
    else if (a === '--family') o.families = next().split(',');
    else if (a === '--keep-going') o.keepGoing = true;
    else if (a === '--replay') {
      const [family, seed, ...path] = next().split(':');
      o.replay = { family: family ?? 'general', seed: Number(seed), path: path.join(':') };
    } else if (a === '--help') {
      console.log('npm run fuzz -- [--minutes M] [--runs N] [--seed S] [--family a,b] [--keep-going] [--replay family:seed:path]');
      process.exit(0);
    } else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/**
 * Hostile inputs for the validator: random bytes, random JSON, a wrong value at a random path of a
 * random scenario, a byte order mark or an array around one, a pollution key or control characters
 * in one.
 */
const validatorInput = fc.oneof(
  randomBytesText.map((text) => ({ text })),
  randomJsonText.map((text) => ({ text })),
  scenarioArb.map((s) => ({ text: `\uFEFF${JSON.stringify(s)}` })),
  scenarioArb.map((s) => ({ text: `[${JSON.stringify(s)}]` })),
  fc.tuple(scenarioArb, fc.constantFrom(...POLLUTION_KEYS)).map(([s, key]) => ({ text: JSON.stringify(s).replace('{', `{"${key}":{},`) })),
  fc.tuple(scenarioArb, fc.nat(), fc.subarray([...CONTROL_CHARACTERS], { minLength: 1 })).map(([s, n, cs]) => {
    const strings = pathsOf(s).filter(
      (p) => typeof p.reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], s) === 'string',
    );
    const path = strings[n % Math.max(1, strings.length)];
    return { value: path ? setAt(s, path, cs.join('')) : s };
  }),
  fc.tuple(scenarioArb, fc.nat(), fc.constantFrom(...WRONG_VALUES)).map(([s, n, w]) => {
    const paths = pathsOf(s);
    return { value: paths.length ? setAt(s, paths[n % paths.length] as (string | number)[], w) : w };
  }),
);

/** Hostile share links: random text after the prefix, and valid links with characters changed or cut. */
const linkInput = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 400 }).map((s) => `#s=1.${s}`),
  fc.tuple(scenarioArb, fc.nat(), fc.nat(), fc.constantFrom('A', '_', '-', '.', '%', '0')).map(([s, cut, at, ch]) => {
    const link = encodeLink(s, DEFAULT_LINK_VIEW);
    const changed = link.slice(0, at % link.length) + ch + link.slice((at % link.length) + 1);
    return changed.slice(0, link.length - (cut % 8));
  }),
);

const linkProperty = fc.property(linkInput, (link) => {
  const d = decodeLink(link);
  if (!d.ok && (typeof d.error.message !== 'string' || d.error.message.length === 0)) throw new Error('an error without a sentence');
  if (d.ok && !validateScenario(d.scenario).ok) throw new Error('decoded a scenario that does not validate');
});

const validatorProperty = fc.property(validatorInput, (input) => {
  const v = 'text' in input ? parseScenarioJson(input.text) : validateScenario(input.value);
  if (!v.ok && (!Array.isArray(v.errors) || v.errors.length === 0)) throw new Error('rejected without errors');
  // fast mode: the run only has to not throw, so nothing but its hash and verdict input is kept
  if (v.ok) runFastResolved(v.resolved, { untilStep: 2000 });
});

// biome-ignore lint/suspicious/noExplicitAny: each family's property has its own value type
function propertyOf(family: string): fc.IProperty<any> {
  if (family === 'validator') return validatorProperty;
  if (family === 'links') return linkProperty;
  if (family in LIVENESS_FAMILIES) return livenessProperty(LIVENESS_FAMILIES[family as keyof typeof LIVENESS_FAMILIES]);
  const f = FAMILIES[family as FamilyName];
  if (!f) throw new Error(`unknown family ${family}`);
  return modelProperty(f.arb, f.everyStep);
}

/** A share link that opens the scenario in the app (`npm run dev` serves it at localhost:5173). */
function shareLink(scenario: Scenario): string {
  return `http://localhost:5173/${encodeLink(scenario, DEFAULT_LINK_VIEW)}`;
}

const seen = new Set<string>();

async function report(family: string, details: fc.RunDetails<unknown[]>): Promise<boolean> {
  const raw = details.counterexample?.[0] as Scenario | LivenessCase | { text?: string; value?: unknown } | undefined;
  // a liveness case carries its scenario beside what it expected
  const example = raw && 'expect' in (raw as object) && 'scenario' in (raw as object) ? (raw as LivenessCase).scenario : raw;
  const scenario = example && 'version' in (example as object) ? (example as Scenario) : null;
  let lines: string[];
  let signature: string;
  if (scenario) {
    try {
      const trace = runScenario(scenario);
      const violations = checkInvariants(trace, { everyStep: true });
      const rules = producerRuleViolations(trace);
      lines = violations.length
        ? formatViolations(violations).split('\n')
        : rules.length
          ? formatRuleViolations(rules).split('\n')
          : [String(details.errorInstance)];
      const stalled = String(details.errorInstance).includes('no progress');
      const restore = String(details.errorInstance).includes('Kafka Streams restore');
      signature = violations.length
        ? [...new Set(violations.map((v) => v.invariant))].sort().join('+')
        : rules.length
          ? [...new Set(rules.map((v) => v.rule))].sort().join('+')
          : stalled
            ? 'liveness'
            : restore
              ? 'streams-restore'
              : 'exception';
    } catch (e) {
      lines = [`the run threw: ${(e as Error).stack ?? e}`];
      signature = 'exception';
    }
  } else {
    lines = [String(details.errorInstance)];
    signature = 'validator';
  }
  const name = `${family}-${signature}-${details.seed}`;
  const fresh = !seen.has(`${family}|${signature}`);
  seen.add(`${family}|${signature}`);
  console.log(`\nFAILED ${family} — seed ${details.seed}, path ${details.counterexamplePath}${fresh ? '' : ' (same kind as before)'}`);
  for (const l of lines.slice(0, 12)) console.log(`  ${l}`);
  mkdirSync('fuzz-failures', { recursive: true });
  const file = `fuzz-failures/${name}.json`;
  writeFileSync(file, `${JSON.stringify(scenario ?? example, null, 2)}\n`);
  console.log(`  shrunk input: ${file}${scenario ? `  (npm run sim -- ${file})` : ''}`);
  if (scenario) console.log(`  share link:   ${shareLink(scenario)}`);
  console.log(`  replay:       npm run fuzz -- --replay ${family}:${details.seed}:${details.counterexamplePath}`);
  return fresh;
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.replay) {
    const r = fc.check(propertyOf(o.replay.family), { seed: o.replay.seed, path: o.replay.path, endOnFailure: true });
    if (r.failed) {
      await report(o.replay.family, r);
      process.exit(1);
    }
    console.log('replayed: the case passes now');
    return;
  }
  const deadline = Date.now() + o.minutes * 60000;
  const chunk = 100;
  let total = 0;
  let failures = 0;
  let round = 0;
  console.log(`fuzzing ${o.families.join(', ')} from seed ${o.seed} for ${o.minutes} min or ${o.runs} cases`);
  while (total < o.runs && Date.now() < deadline) {
    for (const family of o.families) {
      if (total >= o.runs || Date.now() >= deadline) break;
      const seed = (o.seed + round * 7919 + family.length) % 2147483647;
      const cheap = family === 'validator' || family === 'links';
      const size = (FAMILIES as Record<string, { chunk?: number }>)[family]?.chunk ?? chunk;
      const numRuns = Math.min(cheap ? chunk * 10 : size, o.runs - total);
      const r = fc.check(propertyOf(family), { numRuns, seed });
      total += r.numRuns;
      if (r.failed) {
        failures++;
        await report(family, r);
        if (!o.keepGoing) {
          console.log(`\n${total} cases, 1 failure`);
          process.exit(1);
        }
      }
    }
    round++;
    process.stdout.write(`\r${total} cases, ${failures} failure(s), ${Math.max(0, Math.round((deadline - Date.now()) / 1000))} s left   `);
  }
  console.log(`\n${total} cases, ${failures} failure(s)`);
  process.exit(failures ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
