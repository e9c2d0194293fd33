/**
 * An operator's command line run against a step (sim/tools/toolCommand.ts; `npm run sim -- … --tool`):
 * each form read into its command, with Kafka's options and defaults (find-hanging's 15 minutes;
 * `--bootstrap-server` taken anywhere; ConsumerGroupCommandOptions.checkArgs' one view of three), the
 * mistakes refused with what is wrong, and each command printing what the page's section prints.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../src/sim/presets';
import { runScenario, stateAt } from '../../src/sim/run';
import { describeGroupAt, describeGroupText } from '../../src/sim/tools/describeGroup';
import { describeMembersAt, describeMembersText, describeStateAt, describeStateText } from '../../src/sim/tools/describeGroupViews';
import { describeProducersAt, describeProducersText } from '../../src/sim/tools/describeProducers';
import { describeTopicAt, describeTopicText } from '../../src/sim/tools/describeTopic';
import { describeTransactionAt, describeTransactionText } from '../../src/sim/tools/describeTransaction';
import { findHanging, findHangingAt, findHangingText } from '../../src/sim/tools/findHangingTransactions';
import { listGroupsAt, listGroupsText } from '../../src/sim/tools/listGroups';
import { listTransactionsAt, listTransactionsText } from '../../src/sim/tools/listTransactions';
import { parseToolCommand, runToolCommand, splitCommandLine, type ToolCommand } from '../../src/sim/tools/toolCommand';
import { simCli } from '../fixtures/simCli';

const parse = (line: string) => parseToolCommand(splitCommandLine(line));
const command = (line: string): ToolCommand => {
  const r = parse(line);
  if (!r.ok) throw new Error(r.error);
  return r.command;
};
const error = (line: string): string => {
  const r = parse(line);
  if (r.ok) throw new Error(`${line} was accepted`);
  return r.error;
};

describe('reading a command line', () => {
  it('splits at spaces, keeping a quoted word whole', () => {
    expect(splitCommandLine(`kafka-transactions.sh  describe --transactional-id "my id" 'a b'`)).toEqual([
      'kafka-transactions.sh',
      'describe',
      '--transactional-id',
      'my id',
      'a b',
    ]);
  });

  it('reads each kafka-transactions.sh command, --bootstrap-server before or after it, and a path to the script', () => {
    expect(command('kafka-transactions.sh list')).toEqual({ tool: 'list-transactions' });
    expect(command('/opt/kafka/bin/kafka-transactions.sh --bootstrap-server b:9092 list')).toEqual({ tool: 'list-transactions' });
    expect(command('kafka-transactions.sh describe --transactional-id t-1 --bootstrap-server b:9092')).toEqual({
      tool: 'describe-transaction',
      transactionalId: 't-1',
    });
    expect(command('kafka-transactions.sh describe-producers --topic orders --partition 2')).toEqual({
      tool: 'describe-producers',
      topic: 'orders',
      partition: 2,
    });
    // find-hanging's bound defaults to Kafka's 15 minutes
    expect(command('kafka-transactions.sh find-hanging --topic orders --partition 0')).toEqual({
      tool: 'find-hanging',
      topic: 'orders',
      partition: 0,
      maxTransactionTimeout: 15,
    });
    expect(command('kafka-transactions.sh find-hanging --partition 0 --topic orders --max-transaction-timeout 0')).toMatchObject({
      maxTransactionTimeout: 0,
    });
    // argparse4j takes any Integer: a negative bound makes every open transaction a candidate
    expect(command('kafka-transactions.sh find-hanging --topic orders --max-transaction-timeout -1')).toMatchObject({
      maxTransactionTimeout: -1,
    });
    // the other scopes: a whole topic, a broker, a topic on a broker; list's duration filter; describe-producers on a replica
    expect(command('kafka-transactions.sh find-hanging --topic orders')).toEqual({
      tool: 'find-hanging',
      topic: 'orders',
      maxTransactionTimeout: 15,
    });
    expect(command('kafka-transactions.sh find-hanging --broker-id 2')).toEqual({
      tool: 'find-hanging',
      brokerId: 2,
      maxTransactionTimeout: 15,
    });
    expect(command('kafka-transactions.sh find-hanging --broker-id 0 --topic orders --partition 1')).toEqual({
      tool: 'find-hanging',
      topic: 'orders',
      partition: 1,
      brokerId: 0,
      maxTransactionTimeout: 15,
    });
    expect(command('kafka-transactions.sh list --duration-filter 5000')).toEqual({ tool: 'list-transactions', durationFilter: 5000 });
    expect(command('kafka-transactions.sh list --duration-filter -1')).toEqual({ tool: 'list-transactions', durationFilter: -1 });
    expect(command('kafka-transactions.sh describe-producers --topic orders --partition 0 --broker-id 1')).toEqual({
      tool: 'describe-producers',
      topic: 'orders',
      partition: 0,
      brokerId: 1,
    });
  });

  it('reads kafka-topics.sh --describe and the three views of kafka-consumer-groups.sh --describe', () => {
    expect(command('kafka-topics.sh --bootstrap-server b:9092 --describe --topic orders')).toEqual({
      tool: 'describe-topics',
      options: { topic: 'orders', excludeInternal: false, reports: [] },
    });
    expect(command('kafka-topics.sh --describe --exclude-internal --at-min-isr-partitions --under-replicated-partitions')).toEqual({
      tool: 'describe-topics',
      options: { excludeInternal: true, reports: ['under-replicated-partitions', 'at-min-isr-partitions'] },
    });
    expect(command('kafka-consumer-groups.sh --describe --group g')).toEqual({
      tool: 'describe-group',
      group: 'g',
      view: 'offsets',
      verbose: false,
    });
    expect(command('kafka-consumer-groups.sh --describe --group g --offsets')).toMatchObject({ view: 'offsets' });
    expect(command('kafka-consumer-groups.sh --describe --group g --members --verbose')).toMatchObject({ view: 'members', verbose: true });
    expect(command('kafka-consumer-groups.sh --describe --state --group g')).toMatchObject({ view: 'state', verbose: false });
    expect(command('kafka-consumer-groups.sh --describe --group g --state')).toMatchObject({ view: 'state' });
    expect(command('kafka-consumer-groups.sh --describe --all-groups --members --verbose')).toEqual({
      tool: 'describe-group',
      group: null,
      view: 'members',
      verbose: true,
    });
    expect(command('kafka-consumer-groups.sh --bootstrap-server b:9092 --list')).toEqual({ tool: 'list-groups' });
    // --state takes a value with --list, or none (every state, in a STATE column)
    expect(command('kafka-consumer-groups.sh --list --state')).toEqual({ tool: 'list-groups', states: [] });
    expect(command('kafka-consumer-groups.sh --list --state STABLE,empty --type')).toEqual({
      tool: 'list-groups',
      states: ['Stable', 'Empty'],
      types: [],
    });
  });

  it('refuses what it cannot run, saying what is wrong', () => {
    expect(error('kafka-configs.sh --describe')).toBe('"kafka-configs.sh" is not one of the tools run here');
    expect(error('')).toBe('no command given');
    expect(error('kafka-transactions.sh')).toContain('needs a command');
    expect(error('kafka-transactions.sh abort --topic t --partition 0 --start-offset 1')).toContain('abort changes the run');
    expect(error('kafka-transactions.sh describe')).toBe('describe needs --transactional-id <id>');
    // FindHangingTransactionsCommand.execute's checks, in its words
    expect(error('kafka-transactions.sh find-hanging --max-transaction-timeout 0')).toBe(
      'The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search',
    );
    expect(error('kafka-transactions.sh find-hanging --partition 0')).toBe(
      'The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search',
    );
    expect(error('kafka-transactions.sh find-hanging --broker-id 1 --partition 0')).toBe(
      'The --partition argument requires --topic to be provided',
    );
    expect(error('kafka-transactions.sh find-hanging --broker-id one')).toBe("argument --broker-id: could not convert 'one' to Integer");
    expect(error('kafka-transactions.sh describe-producers --topic t --partition 0 --broker-id 1.5')).toBe(
      "argument --broker-id: could not convert '1.5' to Integer",
    );
    expect(error('kafka-transactions.sh list --duration-filter 1m')).toBe("argument --duration-filter: could not convert '1m' to Long");
    expect(error('kafka-transactions.sh list --duration-filter')).toBe('--duration-filter needs a value');
    expect(error('kafka-transactions.sh describe-producers --partition 0 --broker-id 1')).toBe('describe-producers needs --topic <topic>');
    expect(error('kafka-transactions.sh describe-producers --topic t --partition -1')).toBe(
      '--partition needs a whole number ≥ 0, not "-1"',
    );
    expect(error('kafka-transactions.sh find-hanging --topic t --partition 0 --max-transaction-timeout soon')).toBe(
      "argument --max-transaction-timeout: could not convert 'soon' to Integer",
    );
    expect(error('kafka-transactions.sh list --topic t')).toBe('unknown option --topic');
    expect(error('kafka-transactions.sh describe --transactional-id')).toBe('--transactional-id needs a value');
    expect(error('kafka-transactions.sh describe --transactional-id a --transactional-id b')).toBe('--transactional-id is given twice');
    expect(error('kafka-topics.sh --create --topic t')).toBe('unknown option --create');
    expect(error('kafka-topics.sh --topic t')).toContain('only --describe');
    // ConsumerGroupCommandOptions.checkArgs and ConsumerGroupCommand.main, in their words
    expect(error('kafka-consumer-groups.sh --describe')).toBe('Option [describe] takes one of these options: [all-groups], [group]');
    expect(error('kafka-consumer-groups.sh --describe --group g --members --state')).toBe(
      'Option [describe] takes at most one of these options: [members], [offsets], [state]',
    );
    expect(error('kafka-consumer-groups.sh --describe --all-groups --offsets --members')).toBe(
      'Option [describe] takes at most one of these options: [members], [offsets], [state]',
    );
    expect(error('kafka-consumer-groups.sh --describe --group g --state stable')).toBe(
      'Option [describe] does not take a value for [state]',
    );
    expect(error('kafka-consumer-groups.sh --describe --group g --all-groups')).toBe(
      `Option "[group]" can't be used with option "[all-groups]"`,
    );
    expect(error('kafka-consumer-groups.sh --list --group g')).toBe(`Option "[group]" can't be used with option "[list]"`);
    expect(error('kafka-consumer-groups.sh --list --describe --all-groups')).toBe(
      'Command must include exactly one action: --list, --describe, --delete, --reset-offsets, --delete-offsets',
    );
    expect(error('kafka-consumer-groups.sh --list --members --verbose')).toBe(
      'Option(s) [members, verbose] are unavailable given other options on the command line',
    );
    expect(error('kafka-consumer-groups.sh --describe --group g --type')).toBe(
      'Option(s) [type] are unavailable given other options on the command line',
    );
    expect(error('kafka-consumer-groups.sh --list --state stable,asleep')).toBe(
      "Invalid state list 'stable,asleep'. Valid states are: PreparingRebalance, CompletingRebalance, Stable, Dead, Empty, Assigning, Reconciling",
    );
    expect(error('kafka-consumer-groups.sh --list --type modern')).toBe(
      "Invalid types list 'modern'. Valid types are: Consumer, Classic, Share",
    );
    expect(error('kafka-consumer-groups.sh --describe --group g --verbose')).toBe('--verbose is run here with --members only');
    expect(error('kafka-consumer-groups.sh --group g')).toContain('only --list and --describe are run here');
    expect(error('kafka-consumer-groups.sh --group g --reset-offsets')).toBe('unknown option --reset-offsets');
  });
});

describe('running a command at a step', () => {
  it('prints what each tool prints, as the page’s sections do', () => {
    const preset = findPreset('ctp-exactly-once-crash');
    const trace = runScenario(preset?.scenario);
    const scenario = trace.scenario;
    for (const step of [Math.floor(trace.steps.length / 2), trace.steps.length]) {
      const view = stateAt(trace, step);
      const run = (line: string) => runToolCommand(command(line), view, scenario);
      expect(run('kafka-transactions.sh list')).toBe(listTransactionsText(listTransactionsAt(view)));
      expect(run('kafka-transactions.sh describe --transactional-id enricher-0')).toBe(
        describeTransactionText(describeTransactionAt(view, 'enricher-0')),
      );
      expect(run('kafka-transactions.sh describe-producers --topic order-results --partition 0')).toBe(
        describeProducersText(describeProducersAt(view, 'order-results', 0)),
      );
      expect(run('kafka-transactions.sh find-hanging --topic order-results --partition 0 --max-transaction-timeout 0')).toBe(
        findHangingText(findHangingAt(view, 'order-results', 0, 0)),
      );
      expect(run('kafka-topics.sh --describe --topic orders')).toBe(describeTopicText(describeTopicAt(view, scenario, 'orders')));
      // every topic in name order, the internal ones too unless left out
      const all = run('kafka-topics.sh --describe');
      expect(
        all
          .split('\n')
          .filter((l) => l.startsWith('Topic: '))
          .map((l) => l.split('\t')[0]),
      ).toEqual(['Topic: __consumer_offsets', 'Topic: __transaction_state', 'Topic: order-results', 'Topic: orders']);
      expect(run('kafka-topics.sh --describe --exclude-internal')).toBe(
        ['order-results', 'orders'].map((t) => describeTopicText(describeTopicAt(view, scenario, t))).join('\n'),
      );
      expect(run('kafka-topics.sh --describe --topic "order.*" --exclude-internal')).toBe(
        run('kafka-topics.sh --describe --exclude-internal'),
      );
      expect(run('kafka-consumer-groups.sh --describe --group enricher')).toBe(describeGroupText(describeGroupAt(view, 'enricher')));
      expect(run('kafka-consumer-groups.sh --describe --group enricher --members')).toBe(
        describeMembersText(describeMembersAt(view, 'enricher'), false),
      );
      expect(run('kafka-consumer-groups.sh --describe --group enricher --members --verbose')).toBe(
        describeMembersText(describeMembersAt(view, 'enricher'), true),
      );
      expect(run('kafka-consumer-groups.sh --describe --group enricher --state')).toBe(
        describeStateText(describeStateAt(view, 'enricher')),
      );
      // the forms added for Kafka's other scopes print what their functions print
      expect(run('kafka-transactions.sh list --duration-filter 100')).toBe(listTransactionsText(listTransactionsAt(view, 100)));
      expect(run('kafka-transactions.sh find-hanging --topic order-results --max-transaction-timeout 0')).toBe(
        findHangingText(findHanging(view, { topic: 'order-results' }, 0)),
      );
      expect(run('kafka-transactions.sh find-hanging --broker-id 0')).toBe(findHangingText(findHanging(view, { brokerId: 0 }, 15)));
      expect(run('kafka-transactions.sh describe-producers --topic order-results --partition 0 --broker-id 0')).toBe(
        describeProducersText(describeProducersAt(view, 'order-results', 0, 0)),
      );
      expect(run('kafka-consumer-groups.sh --list')).toBe(listGroupsText(listGroupsAt(view), { state: false, type: false }));
      expect(run('kafka-consumer-groups.sh --list --state stable')).toBe(
        listGroupsText(listGroupsAt(view, ['Stable']), { state: true, type: false }),
      );
    }
    // the end of the run: the transactional id's last transaction committed, and listed so
    expect(runToolCommand(command('kafka-transactions.sh list'), stateAt(trace, trace.steps.length), scenario)).toMatch(
      /enricher-0\s+\S+\s+\d+\s+CompleteCommit/,
    );
  });
});

describe('kafka-topics.sh --describe with a partition report (TopicCommand.DescribeOptions)', () => {
  const run = (trace: ReturnType<typeof runScenario>, step: number, line: string) =>
    runToolCommand(command(line), stateAt(trace, step), trace.scenario);
  /** The first step after which kafka-topics.sh --describe --topic orders prints a line matching `pattern`. */
  const firstStep = (trace: ReturnType<typeof runScenario>, pattern: RegExp) => {
    for (let step = 1; step <= trace.steps.length; step++)
      if (pattern.test(run(trace, step, 'kafka-topics.sh --describe --topic orders'))) return step;
    throw new Error(`no step matches ${pattern}`);
  };

  it('prints no topic line, only the partitions a report finds: the ISR shrunk under min.insync.replicas', () => {
    // min-insync-blocks-writes: RF 3, min.insync.replicas=2; the followers stop and the ISR shrinks to the leader
    const trace = runScenario(findPreset('min-insync-blocks-writes')?.scenario);
    const report = (step: number, r: string) => run(trace, step, `kafka-topics.sh --describe --exclude-internal --${r}`);
    expect(report(1, 'under-replicated-partitions')).toBe('');
    const shrunk = firstStep(trace, /\tIsr: 0\t/);
    const orders = /^\tTopic: orders\tPartition: 0\tLeader: 0\tReplicas: 0,1,2\tIsr: 0\tElr: \tLastKnownElr: $/;
    expect(report(shrunk, 'under-replicated-partitions')).toMatch(orders);
    expect(report(shrunk, 'under-min-isr-partitions')).toMatch(orders);
    expect(report(shrunk, 'at-min-isr-partitions')).toBe('');
    // its leader is registered and unfenced: not unavailable
    expect(report(shrunk, 'unavailable-partitions')).toBe('');
    // at two in the ISR it was at its min ISR, and under-replicated
    const two = firstStep(trace, /\tIsr: \d,\d\t/);
    expect(report(two, 'at-min-isr-partitions')).toMatch(/^\tTopic: orders\tPartition: 0\t/);
    expect(report(two, 'under-min-isr-partitions')).toBe('');
  });

  it('finds a partition without a leader unavailable and under its min ISR (unclean-election-loses-committed)', () => {
    const trace = runScenario(findPreset('unclean-election-loses-committed')?.scenario);
    const leaderless = firstStep(trace, /Leader: none/);
    expect(run(trace, leaderless, 'kafka-topics.sh --describe --topic orders --unavailable-partitions')).toMatch(
      /^\tTopic: orders\tPartition: 0\tLeader: none\t/,
    );
    expect(run(trace, leaderless, 'kafka-topics.sh --describe --topic orders --under-min-isr-partitions')).toMatch(/Leader: none/);
  });

  it('says so when --topic names nothing, or is not a regular expression', () => {
    const trace = runScenario(findPreset('opening-story')?.scenario);
    expect(run(trace, trace.steps.length, 'kafka-topics.sh --describe --topic nope')).toBe(
      "Error while executing topic command : Topic 'nope' does not exist as expected",
    );
    expect(run(trace, trace.steps.length, 'kafka-topics.sh --describe --topic "("')).toBe(
      "Error while executing topic command : Illegal regular expression '('",
    );
  });
});

describe('npm run sim -- … --tool', () => {
  it('prints the tool’s output at --until, its tabs kept; a command it cannot run exits 2 with the forms it takes', () => {
    const trace = runScenario(findPreset('hanging-transaction')?.scenario);
    const line =
      'kafka-transactions.sh --bootstrap-server broker-0:9092 find-hanging --topic orders --partition 0 --max-transaction-timeout 0';
    const r = simCli('hanging-transaction', '--tool', line);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`${runToolCommand(command(line), stateAt(trace, trace.steps.length), trace.scenario)}\n`);
    expect(r.out.split('\n')[1]).toMatch(/^orders\t0 +\t\d+ +\t/);
    const bad = simCli('hanging-transaction', '--tool', 'kafka-transactions.sh find-hanging --partition 0');
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search');
    expect(bad.out).toContain('kafka-topics.sh --describe [--topic <regex>]');
    // the new scopes from the command line: the whole topic and the broker find the same row here (one partition, on broker-0)
    const topic = simCli('hanging-transaction', '--tool', 'kafka-transactions.sh find-hanging --topic orders --max-transaction-timeout 0');
    expect(topic).toEqual(r);
    const broker = simCli('hanging-transaction', '--tool', 'kafka-transactions.sh find-hanging --broker-id 0 --max-transaction-timeout 0');
    expect(broker).toEqual(r);
    const groups = simCli('hanging-transaction', '--tool', 'kafka-consumer-groups.sh --list --describe --all-groups');
    expect(groups.code).toBe(2);
    expect(groups.out).toContain('Command must include exactly one action');
  }, 120000);
});

describe('kafka-consumer-groups.sh --list and --describe --all-groups (ConsumerGroupService.listGroups, describeGroups)', () => {
  const trace = runScenario(findPreset('ctp-exactly-once-crash')?.scenario);
  const view = stateAt(trace, trace.steps.length);
  const run = (line: string) => runToolCommand(command(line), view, trace.scenario);

  it('lists the group ids one a line, or printGroupInfo’s table with --state (GROUP at max(15, id) + 10, STATE at 20)', () => {
    const listed = listGroupsAt(view);
    if (listed.kind !== 'listed') throw new Error('listed');
    expect(listed.groups.map((g) => g.groupId)).toContain('enricher');
    expect(run('kafka-consumer-groups.sh --list')).toBe(listed.groups.map((g) => g.groupId).join('\n'));
    const table = run('kafka-consumer-groups.sh --list --state').split('\n');
    expect(table[0]).toBe(`${'GROUP'.padEnd(25)} ${'STATE'.padEnd(20)}`);
    const enricher = listed.groups.find((g) => g.groupId === 'enricher');
    expect(table).toContain(`${'enricher'.padEnd(25)} ${(enricher?.state ?? '').padEnd(20)}`);
    expect(run('kafka-consumer-groups.sh --list --type')).toContain(`${'enricher'.padEnd(25)} ${'Classic'.padEnd(20)}`);
    // a state filter keeps those states only; one no group is in prints the header alone
    const other = enricher?.state === 'Empty' ? 'stable' : 'empty';
    expect(run(`kafka-consumer-groups.sh --list --state ${other}`)).toBe(`${'GROUP'.padEnd(25)} ${'STATE'.padEnd(20)}`);
    expect(run(`kafka-consumer-groups.sh --list --state ${enricher?.state}`)).toContain('enricher');
    expect(run('kafka-consumer-groups.sh --list --type share')).toBe(`${'GROUP'.padEnd(25)} ${'TYPE'.padEnd(20)}`);
  });

  it('describes every listed group in id order with each view, a blank line between', () => {
    const listed = listGroupsAt(view);
    if (listed.kind !== 'listed') throw new Error('listed');
    const ids = listed.groups.map((g) => g.groupId);
    expect(run('kafka-consumer-groups.sh --describe --all-groups')).toBe(
      ids.map((g) => describeGroupText(describeGroupAt(view, g))).join('\n\n'),
    );
    expect(run('kafka-consumer-groups.sh --describe --all-groups --members --verbose')).toBe(
      ids.map((g) => describeMembersText(describeMembersAt(view, g), true)).join('\n\n'),
    );
    expect(run('kafka-consumer-groups.sh --describe --all-groups --state')).toBe(
      ids.map((g) => describeStateText(describeStateAt(view, g))).join('\n\n'),
    );
  });

  it('lists no Dead group, and times out with the coordinator down', () => {
    const actors = new Map(view.actors);
    const snap = actors.get('group-coordinator');
    if (!snap) throw new Error('no group-coordinator');
    const ctx = snap.context as { groups: Record<string, { state: string }> };
    const groups = Object.fromEntries(Object.entries(ctx.groups).map(([id, g]) => [id, { ...g, state: 'Dead' }]));
    actors.set('group-coordinator', { ...snap, context: { ...ctx, groups } });
    expect(listGroupsAt({ ...view, actors })).toEqual({ kind: 'listed', groups: [] });
    const down = new Map([...view.processes].map(([p, s]) => [p, p === 'group-coordinator' ? { ...s, down: true } : s] as const));
    expect(runToolCommand(command('kafka-consumer-groups.sh --list'), { ...view, processes: down }, trace.scenario)).toBe(
      'Error: Executing consumer group command failed due to org.apache.kafka.common.errors.TimeoutException',
    );
  });
});
