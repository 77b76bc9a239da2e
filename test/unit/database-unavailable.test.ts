/**
 * Which failures are the database being unavailable for a moment (answered 503 with Retry-After)
 * and which stay unexpected errors (500): the shapes below are those Prisma 7, its driver adapters
 * and node-postgres give (the live case, a database refusing connections, is
 * test/server/postgres-outage.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from '../../src/db/unavailable.ts';

const prisma = (code: string, cause: Record<string, unknown>) =>
  Object.assign(new Error('Invalid `prisma.event.findMany()` invocation'), { code, meta: { driverAdapterError: { name: 'DriverAdapterError', cause } } });
const wrapped = (inner: unknown) => Object.assign(new Error('Unexpected error.'), { originalError: inner });

describe('databaseUnavailable', () => {
  it.each([
    ['a database refusing connections (55000, as logged)', prisma('P2010', { kind: 'postgres', code: '55000', message: 'database "cal" is not currently accepting connections' })],
    ['a server shutting down (57P01)', prisma('P2010', { kind: 'postgres', code: '57P01', message: 'terminating connection due to administrator command' })],
    ['a server starting up (57P03)', prisma('P2010', { kind: 'postgres', code: '57P03', message: 'the database system is starting up' })],
    ['an unreachable server (adapter kind)', prisma('P1001', { kind: 'DatabaseNotReachable' })],
    ['a closed connection (adapter kind)', prisma('P2010', { kind: 'ConnectionClosed' })],
    ['a refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })],
    ['node-postgres losing its connection', new Error('Connection terminated unexpectedly')],
    ['a pool that found no connection in time', Object.assign(new Error('Timed out fetching a new connection'), { code: 'P2024' })],
    ['any of these under GraphQL (originalError) or a cause', wrapped(new Error('x', { cause: Object.assign(new Error('y'), { code: '57P01' }) }))],
  ])('%s: unavailable', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', prisma('P2002', { kind: 'UniqueConstraintViolation' })],
    ['another object_not_in_prerequisite_state', prisma('P2010', { kind: 'postgres', code: '55000', message: 'cannot execute UPDATE in a read-only transaction' })],
    ['a NUL character in text', prisma('P2010', { kind: 'postgres', code: '22021', message: 'invalid byte sequence for encoding "UTF8": 0x00' })],
    ['a statement timeout', prisma('P2010', { kind: 'postgres', code: '57014', message: 'canceling statement due to statement timeout' })],
    ['a plain bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['nothing', undefined],
  ])('%s: not unavailable', (_name, error) => {
    expect(databaseUnavailable(error)).toBe(false);
  });
});
