/**
 * An operator's command line, as an on-call engineer types it, run against a step of a run: the
 * read-only Kafka tools the page offers on a selection, for `npm run sim -- <scenario> --tool "…"`.
 *
 *   kafka-transactions.sh list [--duration-filter <ms>]
 *   kafka-transactions.sh describe --transactional-id <id>
 *   kafka-transactions.sh describe-producers --topic <t> --partition <p> [--broker-id <id>]
 *   kafka-transactions.sh find-hanging (--topic <t> [--partition <p>] | --broker-id <id> [--topic <t>]) [--max-transaction-timeout <minutes>]
 *   kafka-topics.sh --describe [--topic <regex>] [--exclude-internal] [--under-replicated-partitions …]
 *   kafka-consumer-groups.sh --list [--state [<states>]] [--type [<types>]]
 *   kafka-consumer-groups.sh --describe (--group <g> | --all-groups) [--offsets | --members [--verbose] | --state]
 *
 * `--bootstrap-server <host:port>` is taken and ignored (a run has one cluster). Options are Kafka's
 * own, with its defaults (find-hanging's `--max-transaction-timeout` is 15 minutes, longer than most
 * runs: pass 0 to list every open transaction; list's `--duration-filter` −1, no filter), and so are
 * the argument checks (FindHangingTransactionsCommand.execute's, ConsumerGroupCommandOptions.checkArgs').
 * *Simplified*: kafka-consumer-groups.sh takes one `--group` (Kafka: several), and `--verbose` with
 * `--members` only (Kafka's adds columns to the other two views the model does not keep).
 */
import type { SimView } from '../run';
import type { Scenario } from '../scenario/schema';
import { describeGroupAt, describeGroupText } from './describeGroup';
import { describeMembersAt, describeMembersText, describeStateAt, describeStateText } from './describeGroupViews';
import { describeProducersAt, describeProducersText } from './describeProducers';
import { type DescribeTopicsOptions, describeTopicsAt, describeTopicsText, TOPIC_REPORTS, type TopicReport } from './describeTopic';
import { describeTransactionAt, describeTransactionText } from './describeTransaction';
import { type FindHangingScope, findHanging, findHangingText } from './findHangingTransactions';
import { CONSUMER_GROUP_STATES, GROUP_TYPES, listGroupsAt, listGroupsText, parseNames } from './listGroups';
import { listTransactionsAt, listTransactionsText } from './listTransactions';

export type ToolCommand =
  | { readonly tool: 'list-transactions'; readonly durationFilter?: number }
  | { readonly tool: 'describe-transaction'; readonly transactionalId: string }
  | { readonly tool: 'describe-producers'; readonly topic: string; readonly partition: number; readonly brokerId?: number }
  | ({ readonly tool: 'find-hanging'; readonly maxTransactionTimeout: number } & FindHangingScope)
  | { readonly tool: 'describe-topics'; readonly options: DescribeTopicsOptions }
  | { readonly tool: 'list-groups'; readonly states?: readonly string[]; readonly types?: readonly string[] }
  | {
      readonly tool: 'describe-group';
      /** null: `--all-groups`. */
      readonly group: string | null;
      readonly view: 'offsets' | 'members' | 'state';
      readonly verbose: boolean;
    };

export type ParsedToolCommand = { readonly ok: true; readonly command: ToolCommand } | { readonly ok: false; readonly error: string };

/** The command lines this understands, for an error to show. */
export const TOOL_USAGE = [
  'kafka-transactions.sh list [--duration-filter <ms>]',
  'kafka-transactions.sh describe --transactional-id <id>',
  'kafka-transactions.sh describe-producers --topic <topic> --partition <n> [--broker-id <id>]',
  'kafka-transactions.sh find-hanging (--topic <topic> [--partition <n>] | --broker-id <id> [--topic <topic>]) [--max-transaction-timeout <minutes>]',
  'kafka-topics.sh --describe [--topic <regex>] [--exclude-internal] [--under-replicated-partitions] [--unavailable-partitions] [--under-min-isr-partitions] [--at-min-isr-partitions]',
  'kafka-consumer-groups.sh --list [--state [<state>,…]] [--type [<type>,…]]',
  'kafka-consumer-groups.sh --describe (--group <group> | --all-groups) [--offsets | --members [--verbose] | --state]',
] as const;

/** find-hanging's default (FindHangingTransactionsCommand: `--max-transaction-timeout`, 15 minutes). */
const DEFAULT_MAX_TRANSACTION_TIMEOUT_MINUTES = 15;

/** The options of one command: `--name value` pairs and bare flags, each allowed once. */
class Options {
  private readonly values = new Map<string, string | true>();
  error: string | null = null;

  /** `optionalValue`: options that take the next word as their value when it is not an option (joptsimple's withOptionalArg). */
  constructor(
    words: readonly string[],
    takesValue: ReadonlySet<string>,
    flags: ReadonlySet<string>,
    optionalValue: ReadonlySet<string> = new Set(),
  ) {
    for (let i = 0; i < words.length && this.error === null; i++) {
      const w = words[i] as string;
      if (this.values.has(w)) this.error = `${w} is given twice`;
      else if (optionalValue.has(w)) {
        const v = words[i + 1];
        if (v === undefined || v.startsWith('-')) this.values.set(w, true);
        else {
          this.values.set(w, v);
          i++;
        }
      } else if (takesValue.has(w) || w === '--bootstrap-server') {
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

/** An option argparse4j reads as an Integer or Long: a whole number, or its complaint. */
function wholeNumber(o: Options, name: string, type: 'Integer' | 'Long'): number | null | string {
  const v = o.text(name);
  if (v === null) return null;
  const n = Number(v);
  const max = type === 'Integer' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  return /^-?\d+$/.test(v) && Math.abs(n) <= max ? n : `argument ${name}: could not convert '${v}' to ${type}`;
}

function parseTransactions(words: readonly string[]): ParsedToolCommand {
  // the global option may come before the sub-command, as in `--bootstrap-server b:9092 list`
  const rest = [...words];
  const global: string[] = [];
  while (rest[0] === '--bootstrap-server') global.push(...rest.splice(0, 2));
  const [sub, ...args] = rest;
  const all = [...global, ...args];
  if (sub === 'list') {
    const o = new Options(all, new Set(['--duration-filter']), new Set());
    if (o.error) return fail(o.error);
    const duration = wholeNumber(o, '--duration-filter', 'Long');
    if (typeof duration === 'string') return fail(duration);
    return { ok: true, command: { tool: 'list-transactions', ...(duration === null ? {} : { durationFilter: duration }) } };
  }
  if (sub === 'describe') {
    const o = new Options(all, new Set(['--transactional-id']), new Set());
    if (o.error) return fail(o.error);
    const id = o.text('--transactional-id');
    return id === null
      ? fail('describe needs --transactional-id <id>')
      : { ok: true, command: { tool: 'describe-transaction', transactionalId: id } };
  }
  if (sub === 'describe-producers') {
    const o = new Options(all, new Set(['--topic', '--partition', '--broker-id']), new Set());
    if (o.error) return fail(o.error);
    const brokerId = wholeNumber(o, '--broker-id', 'Integer');
    if (typeof brokerId === 'string') return fail(brokerId);
    const topic = o.text('--topic');
    if (topic === null) return fail(`${sub} needs --topic <topic>`);
    const partition = partitionOf(o, sub);
    if (typeof partition === 'string') return fail(partition);
    return { ok: true, command: { tool: 'describe-producers', topic, partition, ...(brokerId === null ? {} : { brokerId }) } };
  }
  if (sub === 'find-hanging') {
    const o = new Options(all, new Set(['--topic', '--partition', '--broker-id', '--max-transaction-timeout']), new Set());
    if (o.error) return fail(o.error);
    const brokerId = wholeNumber(o, '--broker-id', 'Integer');
    if (typeof brokerId === 'string') return fail(brokerId);
    // an Integer (argparse4j); a negative bound makes every open transaction a candidate, as in Kafka
    const m = wholeNumber(o, '--max-transaction-timeout', 'Integer');
    if (typeof m === 'string') return fail(m);
    const minutes = m ?? DEFAULT_MAX_TRANSACTION_TIMEOUT_MINUTES;
    const topic = o.text('--topic');
    // FindHangingTransactionsCommand.execute's two checks, in its order
    if (topic === null && brokerId === null)
      return fail('The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search');
    if (o.has('--partition') && topic === null) return fail('The --partition argument requires --topic to be provided');
    const partition = o.has('--partition') ? partitionOf(o, sub) : null;
    if (typeof partition === 'string') return fail(partition);
    return {
      ok: true,
      command: {
        tool: 'find-hanging',
        ...(topic === null ? {} : { topic }),
        ...(partition === null ? {} : { partition }),
        ...(brokerId === null ? {} : { brokerId }),
        maxTransactionTimeout: minutes,
      },
    };
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

/** The OptionSpecs as joptsimple prints them: `[name]`. */
const spec = (name: string) => `[${name}]`;

function parseGroups(words: readonly string[]): ParsedToolCommand {
  const o = new Options(
    words,
    new Set(['--group']),
    new Set(['--list', '--describe', '--all-groups', '--offsets', '--members', '--verbose']),
    new Set(['--state', '--type']),
  );
  if (o.error) return fail(o.error);
  // availableIf: --members, --verbose and --offsets with --describe; --state with --describe or --list; --type with --list
  const unavailable = [
    ...(['--members', '--verbose', '--offsets'] as const).filter((x) => o.has(x) && !o.has('--describe')),
    ...(o.has('--state') && !o.has('--describe') && !o.has('--list') ? ['--state'] : []),
    ...(o.has('--type') && !o.has('--list') ? ['--type'] : []),
  ];
  if (unavailable.length > 0)
    return fail(`Option(s) ${spec(unavailable.map((x) => x.slice(2)).join(', '))} are unavailable given other options on the command line`);
  const group = o.text('--group');
  const allGroups = o.has('--all-groups');
  // ConsumerGroupCommandOptions.checkArgs, in its order
  if (o.has('--describe')) {
    // allGroupSelectionScopeOpts is a HashSet: its specs in their hash order
    if (group === null && !allGroups) return fail('Option [describe] takes one of these options: [all-groups], [group]');
    const views = (['--members', '--offsets', '--state'] as const).filter((v) => o.has(v));
    if (views.length > 1) return fail('Option [describe] takes at most one of these options: [members], [offsets], [state]');
    if (o.text('--state') !== null) return fail('Option [describe] does not take a value for [state]');
  }
  if (group !== null && allGroups) return fail('Option "[group]" can\'t be used with option "[all-groups]"');
  if (group !== null && o.has('--list')) return fail('Option "[group]" can\'t be used with option "[list]"');
  // ConsumerGroupCommand.main: exactly one action
  const actions = ['--list', '--describe'].filter((a) => o.has(a));
  if (actions.length !== 1)
    return fail(
      actions.length > 1
        ? 'Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets'
        : 'kafka-consumer-groups.sh: only --list and --describe are run here (a reset of offsets changes the run: inject it in the scenario’s faults)',
    );
  if (o.has('--list')) {
    const stateValue = o.text('--state');
    const typeValue = o.text('--type');
    const states = stateValue === null || stateValue === '' ? [] : parseNames(stateValue, CONSUMER_GROUP_STATES, 'state');
    if (typeof states === 'string') return fail(states);
    const types = typeValue === null || typeValue === '' ? [] : parseNames(typeValue, GROUP_TYPES, 'types');
    if (typeof types === 'string') return fail(types);
    return {
      ok: true,
      command: {
        tool: 'list-groups',
        ...(o.has('--state') ? { states } : {}),
        ...(o.has('--type') ? { types } : {}),
      },
    };
  }
  const views = (['--members', '--offsets', '--state'] as const).filter((v) => o.has(v));
  const view = views[0] === '--members' ? 'members' : views[0] === '--state' ? 'state' : 'offsets';
  // Kafka's --verbose also adds columns to --offsets and --state (LEADER-EPOCH; a consumer-protocol group's epochs)
  if (o.has('--verbose') && view !== 'members') return fail('--verbose is run here with --members only');
  return { ok: true, command: { tool: 'describe-group', group: allGroups ? null : group, view, verbose: o.has('--verbose') } };
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

/** One group's view, as `--describe --group` prints it. */
function describeOneGroup(view: SimView, group: string, as: 'offsets' | 'members' | 'state', verbose: boolean): string {
  if (as === 'members') return describeMembersText(describeMembersAt(view, group), verbose);
  if (as === 'state') return describeStateText(describeStateAt(view, group));
  return describeGroupText(describeGroupAt(view, group));
}

/**
 * `kafka-consumer-groups.sh --describe --all-groups` in one of its views: listConsumerGroups, then each
 * group in id order (describeGroups' TreeMap), a blank line between; the listing's failure when it fails.
 */
export function describeAllGroupsText(view: SimView, as: 'offsets' | 'members' | 'state', verbose: boolean): string {
  const listed = listGroupsAt(view);
  if (listed.kind === 'unavailable') return listGroupsText(listed, { state: false, type: false });
  return listed.groups.map((g) => describeOneGroup(view, g.groupId, as, verbose)).join('\n\n');
}

/** What the tool prints at the step `view` shows. */
export function runToolCommand(command: ToolCommand, view: SimView, scenario: Pick<Scenario, 'topics' | 'cluster'>): string {
  switch (command.tool) {
    case 'list-transactions':
      return listTransactionsText(listTransactionsAt(view, command.durationFilter));
    case 'describe-transaction':
      return describeTransactionText(describeTransactionAt(view, command.transactionalId));
    case 'describe-producers':
      return describeProducersText(describeProducersAt(view, command.topic, command.partition, command.brokerId));
    case 'find-hanging': {
      const { tool: _, maxTransactionTimeout, ...scope } = command;
      return findHangingText(findHanging(view, scope, maxTransactionTimeout));
    }
    case 'describe-topics':
      return describeTopicsText(describeTopicsAt(view, scenario, command.options));
    case 'list-groups':
      return listGroupsText(listGroupsAt(view, command.states, command.types), {
        state: command.states !== undefined,
        type: command.types !== undefined,
      });
    case 'describe-group': {
      if (command.group !== null) return describeOneGroup(view, command.group, command.view, command.verbose);
      return describeAllGroupsText(view, command.view, command.verbose);
    }
  }
}
