import { currentContext } from './request-context';

/** Structured JSON logs, one line each, carrying the request id of the current context. */
type Level = 'debug' | 'info' | 'warn' | 'error';
const LEVELS: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const configured = (process.env.LOG_LEVEL ?? (process.env.JEST_WORKER_ID ? 'error' : 'info')) as Level;
  return LEVELS[configured] ?? LEVELS.info;
}

export function log(level: Level, message: string, fields: Record<string, unknown> = {}): void {
  if (LEVELS[level] < threshold()) return;
  const context = currentContext();
  const line = JSON.stringify({
    time: new Date().toISOString(),
    level,
    message,
    requestId: context?.requestId,
    platformId: context?.platformId ?? undefined,
    ...fields,
  });
  if (level === 'error' || level === 'warn') process.stderr.write(line + '\n');
  else process.stdout.write(line + '\n');
}

export const logger = {
  debug: (message: string, fields?: Record<string, unknown>) => log('debug', message, fields),
  info: (message: string, fields?: Record<string, unknown>) => log('info', message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => log('warn', message, fields),
  error: (message: string, fields?: Record<string, unknown>) => log('error', message, fields),
};
