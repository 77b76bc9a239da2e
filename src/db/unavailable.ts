/**
 * Errors that say the database cannot serve right now (PostgreSQL restarting, refusing
 * connections, a connection cut), not that the request is wrong or the code broken: they are
 * answered 503 with `Retry-After` in each API's error shape, and a retry a few seconds later
 * usually succeeds. Everything else stays an unexpected error (500).
 */
import { errorChain } from './error-chain.ts';

/** Seconds a client should wait before trying again (`Retry-After`). */
export const RETRY_AFTER_S = 5;

/** What the server says where no translated message is at hand (GraphQL, and errors no API handler answered). */
export const UNAVAILABLE_MESSAGE = 'The database is unavailable for a moment; try again shortly.';

/** SQLSTATEs of a server shutting down, starting up or crashed, and of connection failures (class 08). */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300']);
/** Prisma's codes for an unreachable or vanished server and for a pool that found no connection in time. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Prisma driver adapter error kinds of the same. */
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
/** Socket errors of a connection that could not be made or was cut. */
const ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/** What node-postgres and PostgreSQL say when no code is carried along (55000 is also any "not in prerequisite state"). */
const MESSAGES =
  /Connection terminated|not currently accepting connections|the database system is (?:starting up|shutting down|in recovery mode|not yet accepting connections)|terminating connection due to administrator command|Can't reach database server|Server has closed the connection/i;

/** Whether `e`, or an error it wraps (errorChain), says the database is unavailable. */
export function databaseUnavailable(e: unknown): boolean {
  for (const { code, kind, message } of errorChain(e)) {
    if (typeof code === 'string' && (SQLSTATES.has(code) || PRISMA_CODES.has(code) || ERRNO.has(code))) return true;
    if (typeof kind === 'string' && ADAPTER_KINDS.has(kind)) return true;
    if (typeof message === 'string' && MESSAGES.test(message)) return true;
  }
  return false;
}
