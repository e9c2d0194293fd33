import { describe, expect, it } from 'vitest';
import { keyOf, parseTopicPartition, recordAddress, topicPartitionKey } from '../../src/sim/protocol/topicPartition';

describe('topic-partition keys', () => {
  it('spell a partition as Kafka does and a record by its offset', () => {
    expect(topicPartitionKey('orders', 0)).toBe('orders-0');
    expect(keyOf({ topic: 'orders', partition: 3 })).toBe('orders-3');
    expect(recordAddress('orders', 1, 42)).toBe('orders-1@42');
  });

  it('parse back a topic whose name contains dashes', () => {
    expect(parseTopicPartition('order-events-v2-11')).toEqual({ topic: 'order-events-v2', partition: 11 });
    expect(parseTopicPartition(topicPartitionKey('__consumer_offsets', 49))).toEqual({ topic: '__consumer_offsets', partition: 49 });
  });
});
