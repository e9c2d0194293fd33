/**
 * A new transactional.id whose first write fails (TransactionCoordinator.handleInitProducerId:
 * `putTransactionStateIfNotExists(createdMetadata)` before `appendTransactionToLog`): the metadata
 * stays in the coordinator's cache, Empty at epoch −1 with the producer id it was given, and the
 * retry reuses that id. Before, the model dropped the metadata with the failed write, so each retry
 * took a new producer id (1001, 1002, 1003, then 1004 accepted).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { runScenario } from '../../src/sim/run';
import type { Fact } from '../../src/sim/trace/facts';

it("instance-b's InitProducerId, refused while __transaction_state is under min ISR, is answered later with the producer id first given", () => {
  const scenario = JSON.parse(readFileSync(join(import.meta.dirname, 'scenarios', 'new-transactional-id-failed-write.json'), 'utf8'));
  const trace = runScenario(scenario);
  const given: number[] = [];
  let refused = 0;
  for (let i = 0; i < trace.steps.length; i++) {
    const step = trace.steps.at(i);
    if (!step) continue;
    if (step.kind === 'deliver' && step.label === 'InitProducerIdResponse' && step.actor === 'instance-b.producer') {
      const payload = trace.envelopes.at(step.envelope as number)?.payload as { error: string };
      if (payload.error !== 'NONE') refused += 1;
    }
    for (const f of step.facts as Fact[]) if (f.kind === 'producerId' && f.client === 'instance-b') given.push(f.producerId);
  }
  // the scenario's point: the first writes fail
  expect(refused).toBeGreaterThan(0);
  expect(given).toEqual([1001]);
});
