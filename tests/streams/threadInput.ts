/** A stream thread's input for tests that drive its machine without the kernel: exactly_once_v2, a count of `in` into `out`. */
import type { StreamThreadInput } from '../../src/sim/streams/streamThreadContext';

export const THREAD_INPUT: StreamThreadInput = {
  self: 'st.app',
  consumer: 'st.consumer',
  restoreConsumer: 'st.restore',
  producer: 'st.producer',
  client: 'st',
  guarantee: 'exactly_once_v2',
  commitIntervalMs: 100,
  inputTopic: 'in',
  outputTopic: 'out',
  changelogTopic: 'app-count-store-changelog',
  repartitionTopic: null,
  groupBy: null,
};
