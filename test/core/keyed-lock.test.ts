import { describe, expect, it } from 'vitest';
import { KeyedLock } from '../../src/core/resources/keyed-lock.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('KeyedLock', () => {
  it('runs the tasks of one key one at a time, in arrival order', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([
      lock.run('k', task('a')),
      lock.run('k', task('b')),
      lock.run('k', task('c')),
    ]);
    expect(results).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['a start', 'a end', 'b start', 'b end', 'c start', 'c end']);
  });

  it('lets different keys run at the same time', async () => {
    const lock = new KeyedLock();
    const log: string[] = [];
    const task = (name: string) => async () => {
      log.push(`${name} start`);
      await tick();
      log.push(`${name} end`);
    };
    await Promise.all([lock.run('x', task('x')), lock.run('y', task('y'))]);
    expect(log.slice(0, 2)).toEqual(['x start', 'y start']);
  });

  it('keeps the queue going after a task fails, and hands the failure to its caller', async () => {
    const lock = new KeyedLock();
    const failing = lock.run('k', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = lock.run('k', async () => 'after');
    await expect(failing).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });

  it('turns a task that throws before returning a promise into a rejection', async () => {
    const lock = new KeyedLock();
    const thrower = (() => {
      throw new Error('sync');
    }) as () => Promise<never>;
    await expect(lock.run('k', thrower)).rejects.toThrow('sync');
    await expect(lock.run('k', async () => 1)).resolves.toBe(1);
  });
});

describe('KeyedLock keys', () => {
  it('takes any string, the empty one included, each key its own queue', async () => {
    const lock = new KeyedLock();
    const keys = ['', 'floor', 'Symbol(floor)', 'k'];
    const results = await Promise.all(keys.map((key) => lock.run(key, async () => key)));
    expect(results).toEqual(keys);
    // Free again after their tasks: a new task of each runs.
    for (const key of keys) await expect(lock.run(key, async () => 1)).resolves.toBe(1);
  });
});
