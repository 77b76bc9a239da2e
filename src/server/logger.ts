import pino from 'pino';

export const createLogger = (level: string) => pino({ level, base: { service: 'cal-events' }, timestamp: pino.stdTimeFunctions.isoTime });
