import { afterEach, describe, expect, it } from 'vitest';
import { activeLoginThrottle, configureLoginThrottle } from '../../src/services/throttle.ts';
import { freePort } from '../helpers/process.ts';

// The shared sign-in throttle while its Redis is unreachable: every process counts alone (its
// in-memory fallback), with the same policy, a known address's 30-day exemption included.
let release: (() => Promise<void>) | undefined;
afterEach(async () => {
  await release?.();
  release = undefined;
});

describe('sign-in throttle, Redis unreachable', () => {
  it('keeps a known address exempt from the login’s throttle, without a timer overflow', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      // Nothing listens there: the client never connects, every command goes to the fallback.
      release = configureLoginThrottle({ limit: 3, windowS: 60, redis: { url: `redis://127.0.0.1:${await freePort()}`, prefix: 'throttle-fallback' } });
      const throttle = activeLoginThrottle();
      await throttle.succeed({ login: 'ada', ip: '192.0.2.1' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // Failures from elsewhere use up the login's budget.
      for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) await throttle.fail({ login: 'ada', ip });
      expect(await throttle.check({ login: 'ada', ip: '203.0.113.9' })).toMatchObject({ scope: 'login' });
      // The address that signed in before is still known.
      expect(await throttle.check({ login: 'ada', ip: '192.0.2.1' })).toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith('TimeoutOverflowWarning'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});
