/**
 * A real webhook receiver on 127.0.0.1 for tests: it keeps every request (raw bytes, headers, when
 * it arrived), checks X-Billing-Signature over the raw bytes as a receiver should (400 on a
 * mismatch, SPEC §6), and answers as the test's `respond` says (status, after an optional delay).
 * Tests await conditions on the receipts instead of sleeping.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhookSignature } from '../../src/services/webhooks/signature.js';

export interface Receipt {
  /** Date.now() when the request's body had arrived. */
  at: number;
  raw: Buffer;
  body: { id: string; type: string; timestamp: string; data: Record<string, unknown> };
  eventId: string | undefined;
  eventType: string | undefined;
  signature: string | undefined;
  signatureValid: boolean;
  /** The receiver's answer to it. */
  status: number;
}

export interface Answer {
  status: number;
  delayMs?: number;
}

export interface Receiver {
  url: string;
  receipts: Receipt[];
  /** The signing secret to check against (set once the endpoint is registered). */
  secret: string;
  /** How to answer the n-th request (1-based) about an event; 200 by default. */
  respond: (receipt: Omit<Receipt, 'status'>, countForEvent: number) => Answer;
  of(eventId: string): Receipt[];
  /** Resolves once `condition` holds over the receipts (checked on every arrival). */
  until(what: string, condition: (receipts: Receipt[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(respond: Receiver['respond'] = () => ({ status: 200 })): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const receiver: Receiver = {
    url: '',
    receipts: [],
    secret: '',
    respond,
    of: (eventId) => receiver.receipts.filter((r) => r.body.id === eventId),
    until(what, condition, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (!condition(receiver.receipts)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`receiver: ${what} did not happen within ${timeoutMs} ms (${receiver.receipts.length} requests received)`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // The sender keeps connections alive between deliveries.
        server.closeAllConnections();
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const signature = req.headers['x-billing-signature'] as string | undefined;
      const signatureValid = signature !== undefined && verifyWebhookSignature(receiver.secret, raw, signature);
      const partial = {
        at: Date.now(),
        raw,
        body: JSON.parse(raw.toString('utf8')) as Receipt['body'],
        eventId: req.headers['x-billing-event-id'] as string | undefined,
        eventType: req.headers['x-billing-event-type'] as string | undefined,
        signature,
        signatureValid,
      };
      const count = receiver.of(partial.body.id).length + 1;
      const answer = signatureValid ? receiver.respond(partial, count) : { status: 400 };
      const receipt: Receipt = { ...partial, status: answer.status };
      receiver.receipts.push(receipt);
      for (const waiter of [...waiters]) waiter();
      const send = () => {
        if (!res.destroyed) res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(`answer ${answer.status} #${count}`);
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}
