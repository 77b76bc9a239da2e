/** A one-line progress bar on stderr (redrawn in place on a TTY, a line every 10 % otherwise). */
export function progressBar(label: string, total: number) {
  const started = performance.now();
  const tty = process.stderr.isTTY;
  let lastDecile = -1;
  let lastDraw = 0;
  const draw = (done: number, note: string, final = false) => {
    const ratio = total ? Math.min(1, done / total) : 1;
    const width = 30;
    const filled = Math.round(ratio * width);
    const secs = (performance.now() - started) / 1000;
    const eta = ratio > 0.02 && ratio < 1 ? ` eta ${Math.round((secs / ratio) * (1 - ratio))}s` : '';
    const line = `${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(ratio * 100).toFixed(0).padStart(3)}% ${note} ${secs.toFixed(1)}s${eta}`;
    if (tty) {
      process.stderr.write(`\r${line.padEnd(110).slice(0, Math.max(110, line.length))}${final ? '\n' : ''}`);
    } else {
      const decile = Math.floor(ratio * 10);
      if (decile !== lastDecile || final) {
        lastDecile = decile;
        process.stderr.write(`${line}\n`);
      }
    }
  };
  return {
    update(done: number, note = '') {
      const t = performance.now();
      if (tty && t - lastDraw < 100 && done < total) return;
      lastDraw = t;
      draw(done, note);
    },
    done(note = '') {
      draw(total, note, true);
      return (performance.now() - started) / 1000;
    },
  };
}
