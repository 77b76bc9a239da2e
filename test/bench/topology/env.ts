import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../process.ts';

/** The variables of deploy/systemd/cal-events.env (KEY=value lines): what every instance behind the edge gets. */
export function shippedEnv(): Record<string, string> {
  const text = readFileSync(path.join(ROOT, 'deploy/systemd/cal-events.env'), 'utf8');
  return Object.fromEntries([...text.matchAll(/^([A-Z_][A-Z0-9_]*)=(.*)$/gm)].map((m) => [m[1]!, m[2]!.trim()]));
}
