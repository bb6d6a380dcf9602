import { DatabaseError } from 'pg';
import { logger } from '../logger';
import { dependencyUnavailableAnswer, isDependencyUnavailable } from './dependency-errors';

function systemError(code: string, syscall = 'connect'): Error {
  return Object.assign(new Error(`${syscall} ${code} /tmp/.s.PGSQL.5432`), { code, syscall, errno: -1 });
}

function postgresError(code: string, severity = 'FATAL'): DatabaseError {
  const error = new DatabaseError('terminating connection due to administrator command', 100, 'error');
  error.code = code;
  error.severity = severity;
  return error;
}

describe('dependency errors', () => {
  it.each([
    ['a refused connection', systemError('ECONNREFUSED')],
    ['a reset connection', systemError('ECONNRESET', 'read')],
    ['a Unix socket file that is not there', systemError('ENOENT')],
    ['Postgres shutting down (57P01)', postgresError('57P01')],
    ['Postgres crash shutdown (57P02)', postgresError('57P02')],
    ['Postgres starting up or recovering (57P03)', postgresError('57P03')],
    ['a connection exception (08006)', postgresError('08006')],
    ['a connection lost mid-statement', new Error('Connection terminated unexpectedly')],
    ['the pool waiting too long for a connection', new Error('timeout exceeded when trying to connect')],
    ['a client broken by an earlier error', new Error('Client has encountered a connection error and is not queryable')],
    ['ioredis giving up on a command', Object.assign(new Error('Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.'), { name: 'MaxRetriesPerRequestError' })],
    ['ioredis with its connection closed', new Error('Connection is closed.')],
    ['Redis still loading its data', new Error('LOADING Redis is loading the dataset in memory')],
    ['a wrapped cause', new Error('task failed', { cause: systemError('ECONNREFUSED') })],
    ['every address refused', new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')], 'connect failed')],
  ])('%s is a store being unavailable', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(true);
  });

  it.each([
    ['a statement the server refused', postgresError('23505', 'ERROR')],
    ['a missing file read by the code', systemError('ENOENT', 'open')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error at all', 'ECONNREFUSED'],
    ['nothing', undefined],
  ])('%s is not', (_name, error) => {
    expect(isDependencyUnavailable(error)).toBe(false);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After, and tells the log the cause', () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      expect(dependencyUnavailableAnswer(systemError('ECONNREFUSED'))).toEqual({
        body: { status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service cannot reach one of its stores right now; retry shortly' },
        headers: { 'Retry-After': '1' },
      });
      expect(warn).toHaveBeenCalledWith('a store is unavailable; answering 503', { error: 'Error: connect ECONNREFUSED /tmp/.s.PGSQL.5432' });
    } finally {
      warn.mockRestore();
    }
  });
});
