import path from 'node:path';
import { defineConfig } from 'prisma/config';

// Paths resolve from this file, so scripts may run from any working directory.
const here = import.meta.dirname;

export default defineConfig({
  schema: path.join(here, 'schema.prisma'),
  migrations: { path: path.join(here, 'migrations') },
});
