import { MicroBatcher } from './micro-batcher';

describe('MicroBatcher', () => {
  it('groups the calls of one turn into one batch and answers each caller with its own result', async () => {
    const batches: number[][] = [];
    const batcher = new MicroBatcher<number, string>(async (items) => {
      batches.push(items);
      return items.map((item) => `#${item}`);
    });
    const results = await Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
    expect(results).toEqual(['#1', '#2', '#3']);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('collects the calls made while a batch runs into the next one, up to the size limit', async () => {
    const batches: number[][] = [];
    let release: () => void = () => undefined;
    const batcher = new MicroBatcher<number, number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return items;
    }, 2);
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((item) => batcher.submit(item));
    release();
    await Promise.all([first, ...later]);
    expect(batches).toEqual([[1], [2, 3], [4]]);
  });

  it('rejects every caller of a failed batch, and keeps working after it', async () => {
    let fail = true;
    const batcher = new MicroBatcher<number, number>(async (items) => {
      if (fail) throw new Error('database down');
      return items;
    });
    await expect(Promise.all([batcher.submit(1), batcher.submit(2)])).rejects.toThrow('database down');
    fail = false;
    await expect(batcher.submit(3)).resolves.toBe(3);
  });
});
