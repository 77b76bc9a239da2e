#!/usr/bin/env node
/**
 * `npx cal <command> …`: the operator CLI (src/cli/main.ts, run through tsx as `npm run cal`
 * does) without npm's banner, so `--json` prints JSON alone on standard output.
 */
import { tsImport } from 'tsx/esm/api';

const cli = await tsImport('./main.ts', import.meta.url);
await cli.runAsProcess(process.argv.slice(2));
