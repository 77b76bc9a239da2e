// `npm start`: builds dist/ first when it is stale (a source newer than the last build, or files
// added or removed: src/build.mjs), then runs the compiled server in this same process. The check
// was npm's `prestart`, a Node process of its own: its start cost a server start ~50 ms.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dist, inputs, isCurrent, readStamp, root } from './build-stamp.mjs';

if (!isCurrent(inputs(), readStamp())) {
  // In a process of its own: the server never holds esbuild, and the build stays one script.
  const { status } = spawnSync(process.execPath, [path.join(root, 'src/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (status !== 0) process.exit(status ?? 1);
}
await import(pathToFileURL(path.join(dist, 'src/server/main.js')).href);
