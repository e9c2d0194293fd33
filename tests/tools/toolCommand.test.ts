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
import { findHangingAt, findHangingText } from '../../src/sim/tools/findHangingTransactions';
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
  });

  it('refuses what it cannot run, saying what is wrong', () => {
    expect(error('kafka-configs.sh --describe')).toBe('"kafka-configs.sh" is not one of the tools run here');
    expect(error('')).toBe('no command given');
    expect(error('kafka-transactions.sh')).toContain('needs a command');
    expect(error('kafka-transactions.sh abort --topic t --partition 0 --start-offset 1')).toContain('abort changes the run');
    expect(error('kafka-transactions.sh describe')).toBe('describe needs --transactional-id <id>');
    expect(error('kafka-transactions.sh find-hanging --topic orders')).toBe('find-hanging needs --partition <n>');
    expect(error('kafka-transactions.sh find-hanging --partition 0')).toBe('find-hanging needs --topic <topic>');
    expect(error('kafka-transactions.sh describe-producers --topic t --partition -1')).toBe(
      '--partition needs a whole number ≥ 0, not "-1"',
    );
    expect(error('kafka-transactions.sh find-hanging --topic t --partition 0 --max-transaction-timeout soon')).toContain(
      'whole number of minutes',
    );
    expect(error('kafka-transactions.sh list --topic t')).toBe('unknown option --topic');
    expect(error('kafka-transactions.sh describe --transactional-id')).toBe('--transactional-id needs a value');
    expect(error('kafka-transactions.sh describe --transactional-id a --transactional-id b')).toBe('--transactional-id is given twice');
    expect(error('kafka-topics.sh --create --topic t')).toBe('unknown option --create');
    expect(error('kafka-topics.sh --topic t')).toContain('only --describe');
    expect(error('kafka-consumer-groups.sh --describe')).toContain('Option [describe] takes one of these options: [group]');
    expect(error('kafka-consumer-groups.sh --describe --group g --members --state')).toBe(
      'Option [describe] takes at most one of these options: [members], [offsets], [state]',
    );
    expect(error('kafka-consumer-groups.sh --describe --group g --verbose')).toBe('--verbose is run here with --members only');
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
    const bad = simCli('hanging-transaction', '--tool', 'kafka-transactions.sh find-hanging --topic orders');
    expect(bad.code).toBe(2);
    expect(bad.out).toContain('find-hanging needs --partition <n>');
    expect(bad.out).toContain('kafka-topics.sh --describe [--topic <regex>]');
  }, 120000);
});
