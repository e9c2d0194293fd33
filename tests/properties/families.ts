/**
 * The families of random scenarios the property tests and `npm run fuzz` draw from, with how many
 * cases `npm test` runs of each and whether logs are checked after every step.
 */
import type fc from 'fast-check';
import type { Scenario } from '../../src/sim/scenario/schema';
import { scenarioArb, scenarioArbWith } from './arbitraries';
import { operatorResetsArb } from './operatorResets';
import { replicatedScenarioArb } from './replicationFaults';
import { streamsFaultsArb } from './streamsFaults';

export interface Family {
  readonly description: string;
  readonly arb: fc.Arbitrary<Scenario>;
  /** Check the logs after every step (true) or at the checkpoints only. */
  readonly everyStep: boolean;
  /** Cases per `npm test`. */
  readonly cases: number;
  /** Cases per turn of `npm run fuzz` before it moves to the next family (default 100): fewer for slow families. */
  readonly chunk?: number;
}

export const FAMILIES = {
  general: {
    description: 'topics, producers of every kind, consumers in every processing mode, sinks, 0–4 faults',
    arb: scenarioArb,
    everyStep: true,
    cases: 600,
  },
  transactions: {
    description:
      'transactional producers and exactly-once applications under 2–6 faults, short transaction timeouts, transactional ids that may expire',
    arb: scenarioArbWith({
      transactional: true,
      consumers: { min: 1, max: 2 },
      faults: { min: 2, max: 6 },
      shortTimeouts: true,
      maxTimeMs: 60000,
      transactionalIdExpiration: true,
    }),
    everyStep: false,
    cases: 400,
  },
  idempotence: {
    description: 'plain producers, idempotent or not, under lost, delayed and duplicated requests and restarts',
    arb: scenarioArbWith({ transactional: false, consumers: { min: 0, max: 1 }, faults: { min: 1, max: 5 } }),
    everyStep: true,
    cases: 400,
  },
  'streams-faults': {
    description:
      'a Kafka Streams task (both guarantees, with and without groupBy) under pauses past the transaction timeout, crashes at every point, lost and delayed replies',
    arb: streamsFaultsArb,
    everyStep: false,
    cases: 150,
  },
  replication: {
    description:
      'replicated topics (RF 2–3, min.insync.replicas 1–2, unclean election on/off), producers with acks 0/1/all, consumers, under broker crashes, restarts, pauses and controlled shutdowns, slow replication and 0–3 other faults; the internal topics replicated or not',
    // a minute of virtual time: heartbeats and replica fetches make every second of a run cost steps
    arb: replicatedScenarioArb({ consumers: { min: 0, max: 2 }, faults: { min: 0, max: 3 }, maxTimeMs: 60000 }),
    everyStep: true,
    cases: 60,
    chunk: 20,
  },
  'replication-transactions': {
    description:
      'transactional producers and exactly-once applications on replicated topics under broker crashes, restarts, pauses, controlled shutdowns and slow replication, with 1–4 other faults; the coordinators on replicated internal topics or not',
    arb: replicatedScenarioArb({
      transactional: true,
      consumers: { min: 1, max: 2 },
      faults: { min: 1, max: 4 },
      shortTimeouts: true,
      maxTimeMs: 60000,
    }),
    everyStep: false,
    cases: 40,
    chunk: 20,
  },
  'operator-resets': {
    description:
      'transactional producers and consumers of every mode under 0–3 faults, with one or two operators’ offset resets (kafka-consumer-groups --reset-offsets), applied after the consumer stopped or refused while it runs',
    arb: operatorResetsArb,
    everyStep: false,
    cases: 60,
    chunk: 30,
  },
} as const satisfies Record<string, Family>;

export type FamilyName = keyof typeof FAMILIES;
