import { extname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AppConfig } from '../config';
import { Position, comparePositions } from '../event-store/event-store.port';
import { logger } from '../logger';
import { ReportedProgress } from './in-process-read-model-waiter';
import { ReadModelWaiter } from './read-model-waiter';

/** Messages from the thread to the process's main thread. */
export type ProjectorThreadReport = { kind: 'ready'; progress: Position } | { kind: 'progress'; progress: Position };
/** Messages from the main thread to the projector thread. */
export type ProjectorThreadCommand = { kind: 'appended'; position: Position } | { kind: 'stop' };

/** What the thread's entry script receives as `workerData`. */
export interface ProjectorThreadData {
  config: AppConfig;
}

/** After the thread ended without being asked to, it is started again after this. */
export const PROJECTOR_THREAD_RESTART_DELAY_MS = 1000;
/**
 * Longest wait between two tries to start a thread that keeps failing to start (Postgres down):
 * short, so the projections resume within seconds of Postgres coming back, however long it was away.
 */
export const PROJECTOR_THREAD_MAX_RESTART_DELAY_MS = 5_000;
/** The thread's bootstrap: `src/projector-thread.ts`, or its compiled twin under dist/. */
const ENTRY_SCRIPT = join(__dirname, '..', '..', `projector-thread${extname(__filename)}`);
/** Past this, a thread asked to stop is terminated (the service's whole shutdown has 15 s, its Postgres and Redis down or not). */
const STOP_TIMEOUT_MS = 5_000;

/**
 * The projector role in a worker thread of this process (`npm start` with no roles): projections
 * and reactors get a core of their own while the main thread serves the api and runs the
 * workers. The two talk by messages, not through Postgres: each append on the main thread wakes
 * the thread's projector as its own appends would (`appended`, with the position), and the
 * thread reports every advance of its projections (`progress`), which is what read-your-writes
 * waits on here (a ReportedProgress, as with the projector on this thread). A thread that ends without being asked to (a crash) is started again, and again
 * with growing waits while it fails to start (the database down); its projections resume from
 * their checkpoints, and waits meanwhile run into their time limit.
 */
export class ProjectorThread implements ReadModelWaiter {
  private worker: Worker | null = null;
  /** The thread's projections, as far as it has reported them. */
  private readonly progress = new ReportedProgress();
  private ready = false;
  /** The latest append: told to the thread when it is ready, and again to a thread started anew while its progress is short of it. */
  private latestAppended: Position | null = null;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | null = null;

  /**
   * @param config the process's configuration; the thread runs it with the projector role only.
   * @param entryScript the thread's bootstrap (tests give a stand-in).
   */
  constructor(
    private readonly config: AppConfig,
    private readonly entryScript: string = ENTRY_SCRIPT,
  ) {}

  /**
   * This process's projector, moved to a thread: `config` keeps the api and worker roles for the
   * main thread and is marked `projectorThread` (no NOTIFY between the two). Start it after
   * `createApp(config, { projectorThread })`.
   */
  static forProcess(config: AppConfig): ProjectorThread {
    config.roles = new Set(['api', 'worker']);
    config.projectorThread = true;
    return new ProjectorThread(config);
  }

  /** Starts the thread; resolves once its projections and reactors run. */
  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const data: ProjectorThreadData = { config: { ...this.config, roles: new Set(['projector']), projectorThread: true } };
      const worker = extname(this.entryScript) === '.ts'
        ? new Worker(`require('ts-node/register/transpile-only'); require(${JSON.stringify(this.entryScript)});`, { eval: true, workerData: data })
        : new Worker(this.entryScript, { workerData: data });
      this.worker = worker;
      let started = false;
      worker.on('message', (report: ProjectorThreadReport) => {
        this.advance(report.progress);
        if (report.kind === 'ready' && !started) {
          started = true;
          this.ready = true;
          if (this.latestAppended && comparePositions(this.latestAppended, this.progress.current()) > 0) this.appended(this.latestAppended);
          resolve();
        }
      });
      worker.on('error', (error) => logger.error('projector thread failed', { error: error.stack ?? error.message }));
      worker.on('exit', (code) => {
        if (this.worker === worker) this.worker = null;
        this.ready = false;
        if (!started) {
          reject(new Error(`the projector thread exited with code ${code} before it was ready`));
          return;
        }
        if (this.stopping) return;
        logger.error('projector thread ended; starting it again', { exitCode: code, restartInMs: PROJECTOR_THREAD_RESTART_DELAY_MS });
        this.restartAfter(PROJECTOR_THREAD_RESTART_DELAY_MS);
      });
    });
  }

  /** Starts the thread again after `delayMs`; a start that fails is tried again, each wait twice as long (at most PROJECTOR_THREAD_MAX_RESTART_DELAY_MS). */
  private restartAfter(delayMs: number): void {
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.stopping) return;
      this.start().catch((error: Error) => {
        const nextDelayMs = Math.min(delayMs * 2, PROJECTOR_THREAD_MAX_RESTART_DELAY_MS);
        logger.error('projector thread did not start again; trying later', { error: error.message, restartInMs: nextDelayMs });
        this.restartAfter(nextDelayMs);
      });
    }, delayMs);
  }

  /** An append on this process's main thread: wakes the thread's projector and reactors. */
  appended(position: Position): void {
    // Kept until the thread reports progress past it: a notice posted to a thread that then
    // exits is lost with it, so a restarted thread is told again (see start()).
    if (this.latestAppended === null || comparePositions(position, this.latestAppended) > 0) this.latestAppended = position;
    if (!this.ready || !this.worker) return;
    this.worker.postMessage({ kind: 'appended', position } satisfies ProjectorThreadCommand);
  }

  waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    return this.progress.waitFor(position, timeoutMs);
  }

  /** Asks the thread to stop its projector and reactors (terminates it past a time limit); pending waits answer false. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    const worker = this.worker;
    if (worker) {
      const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.postMessage({ kind: 'stop' } satisfies ProjectorThreadCommand);
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    this.progress.cancelWaits();
  }

  private advance(progress: Position): void {
    // Only forward: a lower report (a thread started anew, from its checkpoints) leaves the progress where it was.
    if (comparePositions(progress, this.progress.current()) <= 0) return;
    this.progress.report(progress);
  }
}
