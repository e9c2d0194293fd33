/**
 * An operator's command line, as an on-call engineer types it, run against a step of a run: the
 * read-only Kafka tools the page offers on a selection, for `npm run sim -- <scenario> --tool "…"`.
 *
 *   kafka-transactions.sh list
 *   kafka-transactions.sh describe --transactional-id <id>
 *   kafka-transactions.sh describe-producers --topic <t> --partition <p>
 *   kafka-transactions.sh find-hanging --topic <t> --partition <p> [--max-transaction-timeout <minutes>]
 *   kafka-topics.sh --describe [--topic <regex>] [--exclude-internal] [--under-replicated-partitions …]
 *   kafka-consumer-groups.sh --describe --group <g> [--offsets | --members [--verbose] | --state]
 *
 * `--bootstrap-server <host:port>` is taken and ignored (a run has one cluster). Options are Kafka's
 * own, with its defaults (find-hanging's `--max-transaction-timeout` is 15 minutes, longer than most
 * runs: pass 0 to list every open transaction). *Simplified*: find-hanging needs `--partition` (Kafka
 * also searches a whole topic, or a broker with `--broker-id`);
 * kafka-consumer-groups.sh needs `--group` (not `--all-groups`) and takes `--verbose` with `--members`
 * only (Kafka's adds columns to the other two views the model does not keep).
 */
import type { SimView } from '../run';
import type { Scenario } from '../scenario/schema';
import { describeGroupAt, describeGroupText } from './describeGroup';
import { describeMembersAt, describeMembersText, describeStateAt, describeStateText } from './describeGroupViews';
import { describeProducersAt, describeProducersText } from './describeProducers';
import { type DescribeTopicsOptions, describeTopicsAt, describeTopicsText, TOPIC_REPORTS, type TopicReport } from './describeTopic';
import { describeTransactionAt, describeTransactionText } from './describeTransaction';
import { findHangingAt, findHangingText } from './findHangingTransactions';
import { listTransactionsAt, listTransactionsText } from './listTransactions';

export type ToolCommand =
  | { readonly tool: 'list-transactions' }
  | { readonly tool: 'describe-transaction'; readonly transactionalId: string }
  | { readonly tool: 'describe-producers'; readonly topic: string; readonly partition: number }
  | { readonly tool: 'find-hanging'; readonly topic: string; readonly partition: number; readonly maxTransactionTimeout: number }
  | { readonly tool: 'describe-topics'; readonly options: DescribeTopicsOptions }
  | { readonly tool: 'describe-group'; readonly group: string; readonly view: 'offsets' | 'members' | 'state'; readonly verbose: boolean };

export type ParsedToolCommand = { readonly ok: true; readonly command: ToolCommand } | { readonly ok: false; readonly error: string };

/** The command lines this understands, for an error to show. */
export const TOOL_USAGE = [
  'kafka-transactions.sh list',
  'kafka-transactions.sh describe --transactional-id <id>',
  'kafka-transactions.sh describe-producers --topic <topic> --partition <n>',
  'kafka-transactions.sh find-hanging --topic <topic> --partition <n> [--max-transaction-timeout <minutes>]',
  'kafka-topics.sh --describe [--topic <regex>] [--exclude-internal] [--under-replicated-partitions] [--unavailable-partitions] [--under-min-isr-partitions] [--at-min-isr-partitions]',
  'kafka-consumer-groups.sh --describe --group <group> [--offsets | --members [--verbose] | --state]',
] as const;

/** find-hanging's default (FindHangingTransactionsCommand: `--max-transaction-timeout`, 15 minutes). */
const DEFAULT_MAX_TRANSACTION_TIMEOUT_MINUTES = 15;

/** The options of one command: `--name value` pairs and bare flags, each allowed once. */
class Options {
  private readonly values = new Map<string, string | true>();
  error: string | null = null;

  constructor(words: readonly string[], takesValue: ReadonlySet<string>, flags: ReadonlySet<string>) {
    for (let i = 0; i < words.length && this.error === null; i++) {
      const w = words[i] as string;
      if (this.values.has(w)) this.error = `${w} is given twice`;
      else if (takesValue.has(w) || w === '--bootstrap-server') {
        const v = words[i + 1];
        if (v === undefined || v.startsWith('--')) this.error = `${w} needs a value`;
        else this.values.set(w, v);
        i++;
      } else if (flags.has(w)) this.values.set(w, true);
      else this.error = w.startsWith('--') ? `unknown option ${w}` : `unexpected argument "${w}"`;
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  text(name: string): string | null {
    const v = this.values.get(name);
    return typeof v === 'string' ? v : null;
  }
}

const fail = (error: string): ParsedToolCommand => ({ ok: false, error });

/** A partition number as the tools take it: a whole number ≥ 0. */
function partitionOf(o: Options, tool: string): number | string {
  const p = o.text('--partition');
  if (p === null) return `${tool} needs --partition <n>`;
  const n = Number(p);
  return Number.isInteger(n) && n >= 0 ? n : `--partition needs a whole number ≥ 0, not "${p}"`;
}

function parseTransactions(words: readonly string[]): ParsedToolCommand {
  // the global option may come before the sub-command, as in `--bootstrap-server b:9092 list`
  const rest = [...words];
  const global: string[] = [];
  while (rest[0] === '--bootstrap-server') global.push(...rest.splice(0, 2));
  const [sub, ...args] = rest;
  const all = [...global, ...args];
  if (sub === 'list') {
    const o = new Options(all, new Set(), new Set());
    return o.error ? fail(o.error) : { ok: true, command: { tool: 'list-transactions' } };
  }
  if (sub === 'describe') {
    const o = new Options(all, new Set(['--transactional-id']), new Set());
    if (o.error) return fail(o.error);
    const id = o.text('--transactional-id');
    return id === null
      ? fail('describe needs --transactional-id <id>')
      : { ok: true, command: { tool: 'describe-transaction', transactionalId: id } };
  }
  if (sub === 'describe-producers' || sub === 'find-hanging') {
    const o = new Options(
      all,
      new Set(['--topic', '--partition', ...(sub === 'find-hanging' ? ['--max-transaction-timeout'] : [])]),
      new Set(),
    );
    if (o.error) return fail(o.error);
    const topic = o.text('--topic');
    if (topic === null) return fail(`${sub} needs --topic <topic>`);
    const partition = partitionOf(o, sub);
    if (typeof partition === 'string') return fail(partition);
    if (sub === 'describe-producers') return { ok: true, command: { tool: 'describe-producers', topic, partition } };
    const m = o.text('--max-transaction-timeout');
    const minutes = m === null ? DEFAULT_MAX_TRANSACTION_TIMEOUT_MINUTES : Number(m);
    if (!Number.isInteger(minutes) || minutes < 0) return fail(`--max-transaction-timeout needs a whole number of minutes ≥ 0, not "${m}"`);
    return { ok: true, command: { tool: 'find-hanging', topic, partition, maxTransactionTimeout: minutes } };
  }
  return fail(
    sub === undefined
      ? 'kafka-transactions.sh needs a command: list, describe, describe-producers or find-hanging'
      : `kafka-transactions.sh: "${sub}" is not one of list, describe, describe-producers, find-hanging (abort changes the run: inject it in the scenario's faults)`,
  );
}

function parseTopics(words: readonly string[]): ParsedToolCommand {
  const reports = TOPIC_REPORTS.map((r) => `--${r}`);
  const o = new Options(words, new Set(['--topic']), new Set(['--describe', '--exclude-internal', ...reports]));
  if (o.error) return fail(o.error);
  if (!o.has('--describe')) return fail('kafka-topics.sh: only --describe is run here (the others change the cluster)');
  const topic = o.text('--topic');
  const options: DescribeTopicsOptions = {
    ...(topic === null ? {} : { topic }),
    excludeInternal: o.has('--exclude-internal'),
    reports: TOPIC_REPORTS.filter((r: TopicReport) => o.has(`--${r}`)),
  };
  return { ok: true, command: { tool: 'describe-topics', options } };
}

function parseGroups(words: readonly string[]): ParsedToolCommand {
  const o = new Options(words, new Set(['--group']), new Set(['--describe', '--offsets', '--members', '--verbose', '--state']));
  if (o.error) return fail(o.error);
  if (!o.has('--describe'))
    return fail(
      'kafka-consumer-groups.sh: only --describe is run here (a reset of offsets changes the run: inject it in the scenario’s faults)',
    );
  const group = o.text('--group');
  // ConsumerGroupCommandOptions.checkArgs' words (--all-groups is not run here)
  if (group === null) return fail('Option [describe] takes one of these options: [group] (--all-groups is not run here)');
  const views = (['--members', '--offsets', '--state'] as const).filter((v) => o.has(v));
  if (views.length > 1) return fail('Option [describe] takes at most one of these options: [members], [offsets], [state]');
  const view = views[0] === '--members' ? 'members' : views[0] === '--state' ? 'state' : 'offsets';
  // Kafka's --verbose also adds columns to --offsets and --state (LEADER-EPOCH; a consumer-protocol group's epochs)
  if (o.has('--verbose') && view !== 'members') return fail('--verbose is run here with --members only');
  return { ok: true, command: { tool: 'describe-group', group, view, verbose: o.has('--verbose') } };
}

/** Reads a command line, split into words (the script's name first, with or without its directory). */
export function parseToolCommand(words: readonly string[]): ParsedToolCommand {
  const [script, ...rest] = words;
  const name = script?.split('/').pop();
  if (name === 'kafka-transactions.sh') return parseTransactions(rest);
  if (name === 'kafka-topics.sh') return parseTopics(rest);
  if (name === 'kafka-consumer-groups.sh') return parseGroups(rest);
  return fail(script === undefined ? 'no command given' : `"${script}" is not one of the tools run here`);
}

/** Splits a command line into words at spaces; "…" or '…' keep a word with spaces together. */
export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(line); m !== null; m = re.exec(line)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** What the tool prints at the step `view` shows. */
export function runToolCommand(command: ToolCommand, view: SimView, scenario: Pick<Scenario, 'topics' | 'cluster'>): string {
  switch (command.tool) {
    case 'list-transactions':
      return listTransactionsText(listTransactionsAt(view));
    case 'describe-transaction':
      return describeTransactionText(describeTransactionAt(view, command.transactionalId));
    case 'describe-producers':
      return describeProducersText(describeProducersAt(view, command.topic, command.partition));
    case 'find-hanging':
      return findHangingText(findHangingAt(view, command.topic, command.partition, command.maxTransactionTimeout));
    case 'describe-topics':
      return describeTopicsText(describeTopicsAt(view, scenario, command.options));
    case 'describe-group':
      if (command.view === 'members') return describeMembersText(describeMembersAt(view, command.group), command.verbose);
      if (command.view === 'state') return describeStateText(describeStateAt(view, command.group));
      return describeGroupText(describeGroupAt(view, command.group));
  }
}
