/**
 * Import benchmark: a source cal-events (the real app, seeded in bulk with BENCH_IMPORT_EVENTS
 * events, default 10,000, their venues, organizers and terms) runs as a separate process, and is
 * imported over HTTP into an empty in-memory database (or BENCH_IMPORT_TARGET=postgres://…), as
 * `npm run cal -- import --from …` does. Prints the summary and the rate. Target: 10k events < 2 min.
 *
 * The source is an in-memory PGlite seeded at start (BENCH_IMPORT_SOURCE=postgres://… uses that
 * database instead, seeded when empty and reused as it is otherwise). Seeded images point at hosts
 * that do not exist here, so they are cleared first (image downloads are measured by nothing here).
 * BENCH_IMPORT_RUNS: how many imports (default 2: the first, then a re-run where nothing changes).
 */
import { spawn } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { createContext } from '../../src/services/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/server/app.ts';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { ensureAdmin } from '../../src/services/users.ts';
import { importFromSource } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { readCpuMs } from './process.ts';
import { seedDatabase } from './seed.ts';

const events = Number(process.env.BENCH_IMPORT_EVENTS ?? 10_000);

/** The source process: seeds, serves, prints `{ root, seeded }` on one line, runs until killed. */
async function serveSource() {
  const source = await openDatabase(process.env.BENCH_IMPORT_SOURCE ?? 'memory:');
  await applyMigrations(source);
  let seeded: unknown = { events: await source.prisma.event.count(), reused: true };
  if ((seeded as { events: number }).events === 0) {
    seeded = await seedDatabase(source, { events, progress: false });
    for (const table of ['Event', 'Venue', 'Organizer']) await source.prisma.$executeRawUnsafe(`UPDATE "${table}" SET "imageId" = NULL`);
  }
  await ensureAdmin(source.prisma, 'bench', 'bench password');
  const config = loadConfig({ CAL_LOG_LEVEL: 'silent', CAL_MAX_PER_PAGE: '50' });
  const { app } = buildApp({ config, db: source, logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wp-json/cal/events/v1`;
  process.stdout.write(JSON.stringify({ root, seeded }) + '\n');
}

async function main() {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--source'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => child.kill('SIGTERM');
  process.on('exit', stop);
  const first = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`source process exited (${code})`)));
  });
  const { root, seeded } = JSON.parse(first) as { root: string; seeded: Record<string, unknown> };
  const { sampleEvents: _s, venueIds: _v, organizerIds: _o, topCategories: _c, tagIds: _t, ...counts } = seeded;
  console.log(`source (pid ${child.pid}, ready in ${((performance.now() - started) / 1000).toFixed(1)} s): ${JSON.stringify(counts)}`);

  const target = await openDatabase(process.env.BENCH_IMPORT_TARGET ?? 'memory:');
  await applyMigrations(target);
  await ensureAdmin(target.prisma, 'admin', 'admin password');
  const ctx = createContext({ prisma: target.prisma, settings: defaultSiteSettings });
  const runs = Number(process.env.BENCH_IMPORT_RUNS ?? 2);
  for (let i = 1; i <= runs; i++) {
    const cpu = process.cpuUsage();
    const sourceCpu = readCpuMs(child.pid!) ?? 0;
    const summary = await importFromSource(ctx, { from: root, login: 'bench', password: 'bench password' }, createProgress(process.stderr));
    const imported = Object.values(summary.kinds).reduce((n, k) => n + k.created + k.updated + k.unchanged, 0);
    const label = i === 1 ? 'first import' : 'import again (nothing changes)';
    console.log(
      `${label}: ${imported} records in ${summary.seconds} s (${summary.sourceSeconds} s waiting for the source) = ${summary.rate} records/s; ` +
        `events ${JSON.stringify(summary.kinds.events)}; failures ${summary.failures.length}`,
    );
    // CPU seconds are steadier than wall time on a shared machine: the import fits in 2 minutes on
    // two free cores when both processes' CPU time does.
    const used = process.cpuUsage(cpu);
    const importerCpu = (used.user + used.system) / 1e6;
    const sourceCpuS = ((readCpuMs(child.pid!) ?? 0) - sourceCpu) / 1000;
    console.log(`  CPU: importer ${importerCpu.toFixed(1)} s (database included when embedded), source process ${sourceCpuS.toFixed(1)} s`);
    if (summary.failures.length) console.log(summary.failures.slice(0, 5));
  }
  await target.close();
  stop();
}

if (process.argv.includes('--source')) await serveSource();
else await main();
