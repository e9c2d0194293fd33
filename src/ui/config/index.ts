/**
 * The config editor.
 *
 * - `ConfigEditor` ({ clientId?: string }) — Kafka's keys, defaults, validation messages and INFO
 *   notes for a client, the producer inside a consumer application, the cluster or a topic; a
 *   valid change re-runs the scenario through the store's `fork`.
 */
export { ConfigEditor, type ConfigEditorProps } from './ConfigEditor';
