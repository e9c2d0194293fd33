/**
 * The config editor.
 *
 * - `ConfigEditor` ({ clientId?, sectionId? }) — Kafka's keys, defaults, validation messages and INFO
 *   notes for a client, the producer inside a consumer application, the cluster or a topic; a
 *   valid change re-runs the scenario through the store's `fork`.
 * - `ConfigSheet` — the editor in a drawer (a bottom sheet on phones), open while panels.ts says so.
 */
export { ConfigEditor, type ConfigEditorProps } from './ConfigEditor';
export { ConfigSheet } from './ConfigSheet';
