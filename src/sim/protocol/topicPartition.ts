/**
 * The one spelling of a topic-partition as text: Kafka's own `TopicPartition.toString()`,
 * "orders-0", and a record's address within it, "orders-0@42". A topic name may itself contain
 * '-', so a key is parsed at its last '-' (partition numbers never contain one).
 */

import type { TopicPartition } from './messages';

/** Keys made before, per topic by partition: handlers ask for the same few keys on every event. */
const keys = new Map<string, string[]>();

/** "orders-0" for topic "orders", partition 0. */
export function topicPartitionKey(topic: string, partition: number): string {
  let row = keys.get(topic);
  if (row === undefined) {
    // a bound on what a long-lived page could gather (topic names come from scenarios)
    if (keys.size > 4096) keys.clear();
    row = [];
    keys.set(topic, row);
  }
  let key = row[partition];
  if (key === undefined) {
    key = `${topic}-${partition}`;
    if (Number.isInteger(partition) && partition >= 0 && partition < 65536) row[partition] = key;
  }
  return key;
}

/** The key of anything that carries a topic and a partition. */
export function keyOf(tp: TopicPartition): string {
  return topicPartitionKey(tp.topic, tp.partition);
}

/** "orders-0@42": the record at offset 42 of orders-0. */
export function recordAddress(topic: string, partition: number, offset: number): string {
  return `${topicPartitionKey(topic, partition)}@${offset}`;
}

/** The topic and partition a key names. */
export function parseTopicPartition(key: string): TopicPartition {
  const dash = key.lastIndexOf('-');
  return { topic: key.slice(0, dash), partition: Number(key.slice(dash + 1)) };
}
