import http, { type Server } from 'node:http';
import type { Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The topology's webhook receiver, as an integration runs one: every delivery's signature is
 * verified with the `standardwebhooks` package (a failure is answered 400 and counted), and each
 * change is counted once by its `webhook-id` (a repeat is acknowledged and counted as one). It can
 * be taken down (its port closed, every connection cut) and brought back on the same port.
 */
export interface WebhookReceiver {
  /** Verified deliveries, first arrival of each webhook-id: the record's title (events) and when it came. */
  received: { id: string; type: string; title: string | null; at: number }[];
  /** Deliveries whose signature did not verify. */
  unverified: number;
  /** Deliveries of a webhook-id already received (at-least-once: a retry after a lost answer). */
  repeats: number;
  url: string;
  setSecret(secret: string): void;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(port: number): Promise<WebhookReceiver> {
  let verifier: Webhook | null = null;
  const seen = new Set<string>();
  const sockets = new Set<Socket>();
  const receiver = {
    received: [] as WebhookReceiver['received'],
    unverified: 0,
    repeats: 0,
  };
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      let payload: { type: string; data: { record: { title?: string } | null } };
      try {
        if (!verifier) throw new Error('no secret yet');
        payload = verifier.verify(body, req.headers as Record<string, string>) as typeof payload;
      } catch {
        receiver.unverified++;
        res.writeHead(400).end();
        return;
      }
      const id = String(req.headers['webhook-id']);
      if (seen.has(id)) receiver.repeats++;
      else {
        seen.add(id);
        const title = typeof payload.data.record?.title === 'string' ? payload.data.record.title : null;
        receiver.received.push({ id, type: payload.type, title, at: performance.now() });
      }
      res.writeHead(204).end();
    });
  };
  let server: Server | null = null;
  const up = async () => {
    const s = http.createServer(handle);
    s.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    server = s;
  };
  const down = async () => {
    const s = server;
    server = null;
    if (!s) return;
    const closed = new Promise<void>((resolve) => s.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  await up();
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/webhooks`,
    setSecret: (secret: string) => void (verifier = new Webhook(secret)),
    up,
    down,
    close: down,
  });
}
