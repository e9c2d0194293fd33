/**
 * A Korean particle after a name follows how the name is read: REQUEST_TIMED_OUT을 (아웃), orders-0을
 * (영), producer-1로 (일), transactional.id를 (아이디). Every template that puts a particle after an
 * interpolated name chooses it with josa (src/sim/narration/language.ts), never a fixed one.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { josa } from '../src/sim/narration/language';

describe('josa reads Latin names and numbers as a Korean reader says them', () => {
  it('error codes: the last word of the code', () => {
    expect(josa('REQUEST_TIMED_OUT', '을/를')).toBe('REQUEST_TIMED_OUT을');
    expect(josa('REQUEST_TIMED_OUT', '으로/로')).toBe('REQUEST_TIMED_OUT으로');
    expect(josa('NOT_LEADER_OR_FOLLOWER', '을/를')).toBe('NOT_LEADER_OR_FOLLOWER를');
    expect(josa('UNKNOWN_PRODUCER_ID', '을/를')).toBe('UNKNOWN_PRODUCER_ID를');
    expect(josa('NETWORK_EXCEPTION', '으로/로')).toBe('NETWORK_EXCEPTION으로');
    expect(josa('UNKNOWN_TOPIC_OR_PARTITION', '이/가')).toBe('UNKNOWN_TOPIC_OR_PARTITION이');
    expect(josa('PRODUCER_FENCED', '으로/로')).toBe('PRODUCER_FENCED로');
    expect(josa('UNSTABLE_OFFSET_COMMIT', '을/를')).toBe('UNSTABLE_OFFSET_COMMIT을');
  });
  it('config keys and RPC names: the last word, abbreviations spelled', () => {
    expect(josa('transactional.id', '을/를')).toBe('transactional.id를');
    expect(josa('isolation.level', '으로/로')).toBe('isolation.level로');
    expect(josa('isolation.level', '은/는')).toBe('isolation.level은');
    expect(josa('max.in.flight.requests.per.connection', '이/가')).toBe('max.in.flight.requests.per.connection이');
    expect(josa('enable.idempotence', '을/를')).toBe('enable.idempotence를');
    expect(josa('TxnOffsetCommit', '을/를')).toBe('TxnOffsetCommit을');
    expect(josa('InitProducerId', '을/를')).toBe('InitProducerId를');
    expect(josa('JoinGroup', '을/를')).toBe('JoinGroup을');
    expect(josa('ISR', '으로/로')).toBe('ISR로');
    expect(josa('ISR', '은/는')).toBe('ISR은');
    expect(josa('HW', '이/가')).toBe('HW가');
    expect(josa('TXN', '으로/로')).toBe('TXN으로');
  });
  it('names ending in a digit or a letter', () => {
    expect(josa('orders-0', '을/를')).toBe('orders-0을');
    expect(josa('orders-0', '으로/로')).toBe('orders-0으로');
    expect(josa('producer-1', '으로/로')).toBe('producer-1로');
    expect(josa('producer-1', '이/가')).toBe('producer-1이');
    expect(josa('broker-2', '이/가')).toBe('broker-2가');
    expect(josa('offset 3', '으로/로')).toBe('offset 3으로');
    expect(josa('epoch 6', '을/를')).toBe('epoch 6을');
    expect(josa('epoch 7', '으로/로')).toBe('epoch 7로');
    expect(josa('epoch 8', '과/와')).toBe('epoch 8과');
    expect(josa('epoch 9', '을/를')).toBe('epoch 9를');
    expect(josa('10', '으로/로')).toBe('10으로');
    expect(josa('app-a', '은/는')).toBe('app-a는');
    expect(josa('group-l', '으로/로')).toBe('group-l로');
    expect(josa('worker-m', '이/가')).toBe('worker-m이');
  });
  it('a particle after a parenthesis follows the word before it', () => {
    expect(josa('producer-2 (acks=1)', '은/는')).toBe('producer-2 (acks=1)는');
    expect(josa('commitSync()', '이/가')).toBe('commitSync()가');
    expect(josa('commitSync(orders-0=1)', '을/를')).toBe('commitSync(orders-0=1)를');
    expect(josa('레코드 2개(e1, e2)', '을/를')).toBe('레코드 2개(e1, e2)를');
  });
});

/** Every .ts/.tsx file under a folder. */
function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

describe('Korean templates', () => {
  it('attach no fixed particle to an interpolated name (josa chooses it)', () => {
    const fixed = /\$\{[^{}]*\}(을|를|이|가|은|는|와|과|으로|로)(?=[\s.,)`:;!?])|\$\{[^{}]*\}(이\(가\)|을\(를\)|은\(는\)|\(으\)로)/g;
    const found: string[] = [];
    for (const file of sources(join(__dirname, '../src/sim')).concat(sources(join(__dirname, '../src/ui'))))
      for (const m of readFileSync(file, 'utf8').matchAll(fixed)) found.push(`${file.replace(/^.*\/src\//, 'src/')}: ${m[0]}`);
    expect(found).toEqual([]);
  });
});

describe('the word epoch', () => {
  it('takes one set of particles everywhere, as josa reads it (에포크: epoch를, epoch가, epoch로)', () => {
    expect(josa('epoch', '을/를')).toBe('epoch를');
    const consonantForm = /epoch(을|이 |은 |과 |으로 )/g;
    const found: string[] = [];
    for (const file of sources(join(__dirname, '../src/sim')).concat(sources(join(__dirname, '../src/ui'))))
      for (const m of readFileSync(file, 'utf8').matchAll(consonantForm)) found.push(`${file.replace(/^.*\/src\//, 'src/')}: ${m[0]}`);
    expect(found).toEqual([]);
  });
});
