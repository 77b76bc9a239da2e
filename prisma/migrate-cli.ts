import { DatabaseConfigError, openDatabase } from '../src/db/database.ts';
import { applyMigrations, createMigration, MigrationError } from '../src/db/migrate.ts';

const usage = 'usage: tsx prisma/migrate-cli.ts deploy | create <name>';

async function main([command, ...args]: string[]): Promise<void> {
  if (command === 'deploy' && args.length === 0) {
    const db = await openDatabase(process.env.DATABASE_URL, { dataDir: process.env.CAL_DATA_DIR || undefined, log: console.log });
    try {
      const applied = await applyMigrations(db);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
    } finally {
      await db.close();
    }
  } else if (command === 'create' && args.length === 1) {
    const [name = ''] = args;
    const dir = await createMigration(name);
    console.log(dir ? `created prisma/migrations/${dir}/migration.sql` : 'no changes');
  } else {
    console.error(usage);
    process.exitCode = 2;
  }
}

try {
  await main(process.argv.slice(2));
} catch (e) {
  if (!(e instanceof DatabaseConfigError || e instanceof MigrationError)) throw e;
  console.error(`error: ${e.message}`);
  process.exitCode = 1;
}
