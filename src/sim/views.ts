/**
 * What the page reads of a run: the trace and the state at a step, each actor's context as the
 * actors panel shows it, partition logs as rows, the summary, the verdict and its words, the
 * story, the statecharts and the cost. With `./index` (running and editing runs) it is the engine's
 * public face: src/ui, src/store, src/share and src/embed import the engine from these two modules
 * only (biome.json's noRestrictedImports), never a machine's or a kernel module's path, so the
 * engine's files can move without the page noticing. Modules loaded on demand are the exception
 * (see ./index).
 */

export type { ConsumerAppContext } from './application/consumerApp.machine';
export type { ProducerAppContext } from './application/producerApp.machine';
export type { BrokerContext } from './broker/broker.machine';
// what the page's first stage (src/shell/) and the embed name without the engine
export { asksText } from './budget';
export type { LastTransition } from './charts/actorChart';
export { actorChart, instanceLastTransition } from './charts/actorChart';
export type { Chart, ChartEdge, ChartNode } from './charts/chart';
export { activePaths } from './charts/chart';
export { toMermaid } from './charts/mermaid';
export { evaluateChecklist } from './checks/checklist';
export { isFence, isProducerFatalNotFence } from './checks/producerFatal';
export {
  COPY_CAUSE_NAMES,
  COPY_STATE_NAMES,
  findingSentence,
  LAYER_NAMES,
  LOSS_KIND_NAMES,
  mostTimes,
  STATUS_NAMES,
  statusNameOf,
} from './checks/verdictText';
export type { LayerFinding, Loss, Stall, TopicEvent, Verdict, VerdictView } from './checks/verdictTypes';
export { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from './cluster/metadata';
export type { ConsumerContext } from './consumer/consumer.machine';
export type { GroupCoordinatorContext } from './coordinator/groupCoordinator.machine';
export type { TxnCoordinatorContext } from './coordinator/transactionCoordinator.machine';
export type { MarkerBatch } from './coordinator/txnCoordinatorContext';
export type { RunCost } from './cost/cost';
export { costOfRun } from './cost/costOfRun';
export type { EnvelopeRecord } from './kernel/envelope';
export { processOf } from './kernel/faults';
export type { TraceStep } from './kernel/simulation';
export { stateValueToString } from './kernel/stateValue';
export type { ListLike } from './kernel/traceLists';
export type { PartitionLog } from './log/partitionLog';
export { lastStableOffset } from './log/partitionLog';
export { BROKER_METRIC_MEANINGS, type BrokerMetric, brokerMetricsAt } from './metrics/brokerMetrics';
export {
  type ClientMetric,
  type ClientMetrics,
  clientMetricsAt,
  METRIC_MEANINGS,
  type MetricGroup,
  metricsClientOf,
} from './metrics/clientMetrics';
export { josa, type Language } from './narration/language';
export { DEFAULT_PRESET_ID } from './presets/defaultId';
export { fatalReason } from './producer/fatalReason';
export type { ProducerContext } from './producer/producerContext';
export { queueSize } from './producer/recordAccumulator';
export { keyOf, parseTopicPartition, recordAddress, topicPartitionKey } from './protocol/topicPartition';
export type { SimView, Trace } from './run';
export { errorParts, errorText } from './scenario/errorText';
export { usesTransactions } from './scenario/transactions';
export type { DatabaseContext } from './sinks/database.machine';
export type { HttpApiContext } from './sinks/httpApi.machine';
export type { OutboxRelayContext } from './sinks/outboxRelay.machine';
export type { StreamThreadContext } from './streams/streamThread.machine';
export { storesByTask } from './streams/streamThreadContext';
export { groupDigits } from './text/groupDigits';
export { type DescribeGroupResult, describeGroupAt, describeGroupText } from './tools/describeGroup';
export {
  type DescribeMembersResult,
  type DescribeStateResult,
  describeMembersAt,
  describeMembersText,
  describeStateAt,
  describeStateText,
} from './tools/describeGroupViews';
export { describeProducersAt, describeProducersText, leaderBrokerId, replicaBrokerIds } from './tools/describeProducers';
export {
  type DescribeTopicResult,
  describeTopicAt,
  describeTopicsAt,
  describeTopicsText,
  describeTopicText,
  TOPIC_REPORTS,
  type TopicReport,
} from './tools/describeTopic';
export { type DescribeTransactionResult, describeTransactionAt, describeTransactionText } from './tools/describeTransaction';
export {
  type FindHangingResult,
  type FindHangingScope,
  findHanging,
  findHangingAt,
  findHangingText,
} from './tools/findHangingTransactions';
export { type ListGroupsResult, listGroupsAt, listGroupsText } from './tools/listGroups';
export { type ListTransactionsResult, listTransactionsAt, listTransactionsText } from './tools/listTransactions';
export { describeAllGroupsText } from './tools/toolCommand';
export { coordinatorGroups } from './trace/coordinatorGroups';
export { type EnvelopeRow, envelopeRows } from './trace/envelopeRows';
export type { Fact } from './trace/facts';
export { injectsFault } from './trace/injectedFaults';
export type { PartitionRow, RecordRow } from './trace/logView';
export { logSources, partitionRows, recordRows } from './trace/logView';
export { stopsProcess } from './trace/processStops';
export type { ReplicaRow, ReplicationRow, TruncationRow, Truncations } from './trace/replicationView';
export { nextStoryPosition, previousStoryPosition, storyMarks, storySteps } from './trace/story';
export type { TraceSummary } from './trace/summary';
export { eventlessTopicsOf, outputTopicsOf, summarize, truncationsAt, verdictAtStep, verdictViewAt } from './trace/summary';
export { type PageAsk, type SummaryView, summaryViewAt } from './trace/summaryView';
