/**
 * Groups calls made close together into one call of `run` (one SQL statement for many
 * deliveries instead of one each). While a batch is running, new items wait and go out together
 * in the next one, so batches grow with the load and a lone item waits for nothing but the
 * current batch. `run` answers one result per item, in order.
 */
export class MicroBatcher<TItem, TResult> {
  private pending: Array<{ item: TItem; resolve: (result: TResult) => void; reject: (error: unknown) => void }> = [];
  private running = false;
  private scheduled = false;

  constructor(
    private readonly run: (items: TItem[]) => Promise<TResult[]>,
    private readonly maxBatchSize = 200,
  ) {}

  submit(item: TItem): Promise<TResult> {
    return new Promise<TResult>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled || this.pending.length === 0) return;
    this.scheduled = true;
    // Let the other calls of this turn of the event loop join the batch.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running || this.pending.length === 0) return;
    this.running = true;
    const batch = this.pending.splice(0, this.maxBatchSize);
    try {
      const results = await this.run(batch.map((entry) => entry.item));
      batch.forEach((entry, index) => entry.resolve(results[index]));
    } catch (error) {
      for (const entry of batch) entry.reject(error);
    } finally {
      this.running = false;
      this.schedule();
    }
  }
}
