/**
 * Import benchmark: a source cal-events (the real app on an in-memory PGlite, seeded in bulk with
 * BENCH_IMPORT_EVENTS events, default 10,000, their venues, organizers and terms) imported over
 * HTTP into an empty in-memory database (or BENCH_IMPORT_TARGET=postgres://…), as
 * `npm run cal -- import --from …` does. Prints the summary and the rate. Target: 10k events < 2 min.
 * Seeded images point at hosts that do not exist here, so they are cleared first (image downloads
 * are measured by nothing here).
 */
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createContext } from '../../src/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/server/app.ts';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { ensureAdmin } from '../../src/services/users.ts';
import { importFromSource } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { seedDatabase } from './seed.ts';

const events = Number(process.env.BENCH_IMPORT_EVENTS ?? 10_000);
const source = await openDatabase('memory:');
await applyMigrations(source);
const seeded = await seedDatabase(source, { events, progress: false });
await source.prisma.$executeRawUnsafe('UPDATE "Event" SET "imageId" = NULL');
await source.prisma.$executeRawUnsafe('UPDATE "Venue" SET "imageId" = NULL');
await source.prisma.$executeRawUnsafe('UPDATE "Organizer" SET "imageId" = NULL');
await ensureAdmin(source.prisma, 'bench', 'bench password');
const config = loadConfig({ CAL_LOG_LEVEL: 'silent', CAL_MAX_PER_PAGE: '50' });
const { app } = buildApp({ config, db: source, logger: pino({ level: 'silent' }) });
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/cal/events/v1`;
console.log(`source: ${seeded.events} events, ${seeded.venues} venues, ${seeded.organizers} organizers, ${seeded.categories} categories, ${seeded.tags} tags`);

const target = await openDatabase(process.env.BENCH_IMPORT_TARGET ?? 'memory:');
await applyMigrations(target);
await ensureAdmin(target.prisma, 'admin', 'admin password');
const ctx = createContext({ prisma: target.prisma, settings: defaultSiteSettings });
const run = async (label: string) => {
  const summary = await importFromSource(ctx, { from: root, login: 'bench', password: 'bench password' }, createProgress(process.stderr));
  const imported = Object.values(summary.kinds).reduce((n, k) => n + k.created + k.updated + k.unchanged, 0);
  console.log(`${label}: ${imported} records in ${summary.seconds} s (${summary.sourceSeconds} s waiting for the source) = ${summary.rate} records/s; events ${JSON.stringify(summary.kinds.events)}; failures ${summary.failures.length}`);
};
await run('first import');
await run('second import (nothing changes)');
server.closeAllConnections();
server.close();
await target.close();
await source.close();
