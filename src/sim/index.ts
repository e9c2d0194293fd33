/**
 * The engine's public face, with `./views` (what the page reads of a run): running a scenario and
 * the state at a step, scenarios and their validation, presets, edits (injections), links,
 * configuration, budgets, A/B comparison, Break it and dump analysis. src/ui, src/store, src/share
 * and src/embed import the engine from here and from ./views only (biome.json's
 * noRestrictedImports); the CLI, the tests, the benchmarks and Web Worker entries (`*.worker.ts`,
 * built as bundles of their own) are engine side and may import any module. The engine's modules
 * have no side effects at import (src/sim/package.json says so to the bundler), so a page's bundle
 * keeps only what it uses of these re-exports.
 *
 * The modules the page loads on demand with import(), each a chunk of its own, are imported by path
 * and not re-exported here: `./narration`, `./presets/ko`, `./dump/parse` and `./dump/analyze`.
 */

export type { BudgetKind, BudgetStop, PageBudgets, ScenarioAsks } from './budget';
export { asksText, MemoryMeter, PAGE_BUDGETS, scenarioAsks, sizeRefusal } from './budget';
export { AB_PREFIX, decodeAbLink, encodeAbLink } from './compare/abLink';
export type { Comparison } from './compare/compare';
export { compareRuns } from './compare/compare';
export type { ScenarioDifference, Setting, SettingChange, SettingValue, ValueInForce } from './compare/settings';
export { applySettings, scenarioDifferences, settingsDiff, settingsOf } from './compare/settings';
export { CLUSTER_CONFIG } from './config/clusterConfig';
export type { ConfigKey, ConfigValue } from './config/configSpec';
export { CONSUMER_CONFIG } from './config/consumerConfig';
export { PRODUCER_CONFIG } from './config/producerConfig';
export { STREAMS_CONFIG } from './config/streamsConfig';
export { TOPIC_CONFIG } from './config/topicConfig';
export type { DumpAnalysis } from './dump/analyze';
export type { DumpSource } from './dump/parse';
export { describeIssue } from './dump/text';
export type { DumpIssue } from './dump/types';

export type { Preset } from './presets';
export { DEFAULT_PRESET_ID, findPreset, PRESETS, unknownPresetHint } from './presets';
export type { PresetText } from './presets/ko';
export type { ScenarioTexts, ScenarioWords } from './presets/localized';
export { scenarioTexts } from './presets/localized';
export { finishTrace, RecordedTrace, runScenario, startRun, stateAt } from './run';
export { fromBase64Url, toBase64Url } from './scenario/base64url';
export type { ProcessKind } from './scenario/build';
export { describeFault } from './scenario/build';
export type {
  At,
  ConfigTarget,
  EditOutcome,
  EditRefusal,
  EnvelopeStatus,
  SecondInstanceOutlook,
  TimeoutKey,
} from './scenario/edits';
export {
  abortTransactionNow,
  advancePastTimeout,
  compactedTopics,
  configPath,
  envelopeStatus,
  explicitConfig,
  injectEnvelopeFault,
  injectProcessFault,
  offsetResetTargets,
  removeFault,
  resendRecord,
  resendTarget,
  resetOffsetsNow,
  runCleanerNow,
  secondInstanceOutlook,
  sendNewRecord,
  setConfigValues,
  startSecondInstance,
  timeoutPause,
  transactionAbortTarget,
} from './scenario/edits';
export { stripByteOrderMark } from './scenario/jsonText';
export type { LinkError, LinkLanguage, LinkView } from './scenario/link';
export { decodeLink, encodeLink, LINK_LIMITS, looksLikeLink, toLinkSelection } from './scenario/link';
export { presetOrigin } from './scenario/origin';
export type {
  ClientSpec,
  ConsumerClientSpec,
  FaultSpec,
  ProducerClientSpec,
  Scenario,
  SinkSpec,
  StreamsClientSpec,
} from './scenario/schema';
export type { ConfigNote, ResolvedScenario, ScenarioError } from './scenario/validate';
export { errorParts, errorText, parseScenarioJson, validateScenario } from './scenario/validate';
export type { FaultKind } from './search/faultSpace';
export { FAULT_KINDS } from './search/faultSpace';
export { goalFor } from './search/presetGoals';
export type { Property, PropertyId } from './search/property';
export { describeProperty, PROPERTY_IDS } from './search/property';
export { brokeText, counterexampleLink, noCounterexampleText } from './search/report';
export { prepareBase } from './search/runner';
export type { Counterexample, OrderKey, SearchConfig, SearchControl, SearchProgress, SearchResult } from './search/search';
export { compareOrder, search } from './search/search';
export type { LinkSearch } from './search/searchLink';
export { linkSearchResult, recordedResult } from './search/searchLink';
export { ViewCursor } from './trace/cursor';
export { startFork } from './trace/fork';
