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
