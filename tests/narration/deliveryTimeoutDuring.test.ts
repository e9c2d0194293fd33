/**
 * The Korean of a delivery.timeout.ms expiry's client error: the Sender's message is Kafka's
 * (Sender.sendProducerData: "Expiring N record(s) for tp:X ms has passed since batch creation").
 */
import { describe, expect, it } from 'vitest';
import { translateDuring } from '../../src/sim/narration/notes';

describe('translateDuring: delivery.timeout.ms expiry', () => {
  it('translates Kafka’s expiry message, with its milliseconds and partition', () => {
    expect(translateDuring('Expiring 2 record(s) for t-0:5000 ms has passed since batch creation', 'ko')).toBe(
      '배치를 만든 뒤 5000 ms가 지나(delivery.timeout.ms) t-0의 레코드 2개를 만료시키는',
    );
    expect(translateDuring('Expiring 1 record(s) for orders-12:120001 ms has passed since batch creation', 'ko')).toBe(
      '배치를 만든 뒤 120001 ms가 지나(delivery.timeout.ms) orders-12의 레코드 1개를 만료시키는',
    );
    expect(translateDuring('Expiring 2 record(s) for t-0:5000 ms has passed since batch creation', 'en')).toBe(
      'Expiring 2 record(s) for t-0:5000 ms has passed since batch creation',
    );
  });
});
