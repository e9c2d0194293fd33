import { describe, expect, it } from 'vitest';
import {
  coordinatorPartitionFor,
  javaStringHashCode,
  murmur2,
  partitionForKey,
  toPositive,
  utf8Bytes,
} from '../src/sim/producer/partitioner';

// Kafka's own vectors: clients/src/test/java/org/apache/kafka/common/utils/UtilsTest.java#testMurmur2
const VECTORS: [Uint8Array, number][] = [
  [utf8Bytes('21'), -973932308],
  [utf8Bytes('foobar'), -790332482],
  [utf8Bytes('a-little-bit-long-string'), -985981536],
  [utf8Bytes('a-little-bit-longer-string'), -1486304829],
  [utf8Bytes('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'), -58897971],
  [new Uint8Array([97, 98, 99]), 479470107],
];

describe('default partitioner', () => {
  it.each(VECTORS.map(([bytes, expected]) => [new TextDecoder().decode(bytes), bytes, expected] as const))(
    'murmur2(%s) matches Kafka',
    (_name, bytes, expected) => {
      expect(murmur2(bytes)).toBe(expected);
    },
  );

  it('makes the hash positive by clearing the sign bit, as Utils.toPositive does', () => {
    expect(toPositive(-973932308)).toBe(1173551340);
    expect(toPositive(-2147483648)).toBe(0);
  });

  it('places a key on toPositive(murmur2(key)) % partitions', () => {
    expect(partitionForKey('21', 3)).toBe(0);
    expect(partitionForKey('a-little-bit-longer-string', 6)).toBe(5);
    expect(partitionForKey('order-123', 1)).toBe(0);
    // one partition: 0 for any key, as toPositive(h) % 1 is (the hash is not computed)
    for (const key of ['', 'k0', 'é✓', 'a-little-bit-longer-string'])
      expect(partitionForKey(key, 1)).toBe(toPositive(murmur2(utf8Bytes(key))) % 1);
  });

  it("maps ids to coordinator partitions with Java's String.hashCode", () => {
    expect(javaStringHashCode('')).toBe(0);
    expect(javaStringHashCode('hello')).toBe(99162322);
    expect(coordinatorPartitionFor('hello', 50)).toBe(99162322 % 50);
  });
});
