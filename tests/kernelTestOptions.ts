/** Kernel options for the tests that run the kernel with tiny machines: 1 ms links, no jitter, short settle windows. */
import type { KernelOptions } from '../src/sim/kernel/simulation';

export const kernelTestOptions = (o: Partial<KernelOptions> = {}): KernelOptions => ({
  seed: 1,
  network: { latencyMs: 1, jitterMs: 0, links: [] },
  faults: [],
  checkpointEvery: 64,
  maxSteps: 100000,
  maxTimeMs: 600000,
  settleMs: 10,
  settleMsWhileDown: 10,
  settleMsAfterFault: 10,
  record: true,
  ...o,
});
