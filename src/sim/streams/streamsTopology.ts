/**
 * The Streams application's internal topics, named as Kafka Streams names them:
 * `<application.id>-<store>-changelog` and `<application.id>-<store>-repartition`.
 */
export const COUNT_STORE = 'count-store';

export function changelogTopic(applicationId: string): string {
  return `${applicationId}-${COUNT_STORE}-changelog`;
}

export function repartitionTopic(applicationId: string): string {
  return `${applicationId}-${COUNT_STORE}-repartition`;
}

/**
 * A task's id, `<sub-topology>_<partition>` (TaskId): count() runs in sub-topology 0, or 1 after a
 * groupBy (sub-topology 0 re-keys the input into the repartition topic).
 */
export function taskId(repartitioned: boolean, partition: number): string {
  return `${repartitioned ? 1 : 0}_${partition}`;
}
