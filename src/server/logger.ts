import pino from 'pino';
import { traceIds } from '../telemetry/tracing.ts';

/** Traced, every line written while a span is active carries its trace and span IDs. */
export const createLogger = (level: string) =>
  pino({ level, base: { service: 'cal-events' }, timestamp: pino.stdTimeFunctions.isoTime, mixin: () => traceIds() ?? {} });
