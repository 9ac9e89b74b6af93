/**
 * The pure parts of outbound webhooks: the circuit breaker state machine, the retry schedule,
 * subscriptions to event types, the configuration (SPEC values as its defaults), the SSRF address
 * rules and the signature.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadWorkerConfig } from '../../src/config.js';
import { webhookSettingsOf } from '../../src/services/webhooks/settings.js';
import {
  admitAttempt,
  circuitWake,
  CLOSED_BREAKER,
  delayBeforeAttempt,
  outageExceeded,
  recordAttemptOutcome,
  retryScheduleProblems,
  subscribes,
  type Breaker,
  type BreakerPolicy,
} from '../../src/core/webhooks.js';
import { maskSecret, newWebhookSecret, signWebhookBody, verifyWebhookSignature } from '../../src/services/webhooks/signature.js';
import { checkEndpointUrl, isPrivateAddress, parseEndpointUrl } from '../../src/services/webhooks/url-policy.js';

const POLICY: BreakerPolicy = { threshold: 5, openMs: 60_000, probeLeaseMs: 15_000 };

const failTimes = (breaker: Breaker, times: number, atMs: number, deliveryId = 'd'): Breaker => {
  let b = breaker;
  for (let i = 0; i < times; i += 1) b = recordAttemptOutcome(b, deliveryId, false, atMs, POLICY);
  return b;
};

describe('circuit breaker', () => {
  it('opens after exactly `threshold` consecutive failures, and a success in between resets the count', () => {
    expect(failTimes(CLOSED_BREAKER, 4, 1000)).toMatchObject({ state: 'Closed', consecutiveFailures: 4 });
    expect(failTimes(CLOSED_BREAKER, 5, 1000)).toEqual({ state: 'Open', consecutiveFailures: 5, openedAtMs: 1000, probeDeliveryId: null, probeUntilMs: null });
    const reset = recordAttemptOutcome(failTimes(CLOSED_BREAKER, 4, 1000), 'd', true, 1000, POLICY);
    expect(failTimes(reset, 4, 1000).state).toBe('Closed');
  });

  it('holds every delivery while open, then lets exactly one probe through', () => {
    const open = failTimes(CLOSED_BREAKER, 5, 1000);
    expect(admitAttempt(open, 'a', 1000 + POLICY.openMs - 1, POLICY)).toEqual({ admitted: false, retryAtMs: 1000 + POLICY.openMs, breaker: open });
    const probe = admitAttempt(open, 'a', 1000 + POLICY.openMs, POLICY);
    expect(probe).toMatchObject({ admitted: true, breaker: { state: 'HalfOpen', probeDeliveryId: 'a', probeUntilMs: 1000 + POLICY.openMs + POLICY.probeLeaseMs } });
    const halfOpen = probe.breaker;
    expect(admitAttempt(halfOpen, 'b', 1000 + POLICY.openMs + 1, POLICY)).toMatchObject({ admitted: false, retryAtMs: halfOpen.probeUntilMs });
    expect(admitAttempt(halfOpen, 'a', 1000 + POLICY.openMs + 1, POLICY).admitted).toBe(true);
    // A probe that never reported (its worker died) is replaced once its claim lapses.
    expect(admitAttempt(halfOpen, 'b', halfOpen.probeUntilMs!, POLICY)).toMatchObject({ admitted: true, breaker: { probeDeliveryId: 'b' } });
  });

  it("closes on the probe's success and re-opens for a full window on its failure", () => {
    const halfOpen = admitAttempt(failTimes(CLOSED_BREAKER, 5, 0), 'p', POLICY.openMs, POLICY).breaker;
    expect(recordAttemptOutcome(halfOpen, 'p', true, POLICY.openMs + 10, POLICY)).toEqual(CLOSED_BREAKER);
    expect(recordAttemptOutcome(halfOpen, 'p', false, POLICY.openMs + 10, POLICY)).toMatchObject({ state: 'Open', openedAtMs: POLICY.openMs + 10, probeDeliveryId: null });
    // Another delivery's late failure (it was under way before the circuit opened) does not move the probe's window.
    expect(recordAttemptOutcome(halfOpen, 'other', false, POLICY.openMs + 10, POLICY)).toMatchObject({ state: 'HalfOpen', probeDeliveryId: 'p' });
  });

  it('never admits anyone while open, whatever happens, until the window has passed (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ ok: fc.boolean(), id: fc.constantFrom('a', 'b', 'c'), dt: fc.integer({ min: 0, max: 90_000 }) }), { maxLength: 40 }), (steps) => {
        let breaker = CLOSED_BREAKER;
        let now = 0;
        for (const step of steps) {
          now += step.dt;
          const admission = admitAttempt(breaker, step.id, now, POLICY);
          if (breaker.state === 'Open' && now < breaker.openedAtMs! + POLICY.openMs) expect(admission.admitted).toBe(false);
          if (breaker.state === 'Closed') expect(admission.admitted).toBe(true);
          breaker = admission.breaker;
          if (admission.admitted) breaker = recordAttemptOutcome(breaker, step.id, step.ok, now, POLICY);
          if (breaker.state === 'HalfOpen') expect(breaker.probeDeliveryId).not.toBeNull();
        }
      }),
    );
  });
});

describe('circuit waker', () => {
  it('wakes every parked delivery of a closed circuit, and none of an open one before its window has passed', () => {
    expect(circuitWake(CLOSED_BREAKER, 'oldest', 0, POLICY)).toEqual({ wake: 'all' });
    const open = failTimes(CLOSED_BREAKER, 5, 1000);
    expect(circuitWake(open, 'oldest', 1000 + POLICY.openMs - 1, POLICY)).toEqual({ wake: 'none' });
  });

  it('makes the oldest parked delivery the one probe once the window has passed, claiming it so nothing else wakes meanwhile', () => {
    const open = failTimes(CLOSED_BREAKER, 5, 1000);
    const wake = circuitWake(open, 'oldest', 1000 + POLICY.openMs, POLICY);
    expect(wake).toEqual({ wake: 'probe', breaker: { ...open, state: 'HalfOpen', probeDeliveryId: 'oldest', probeUntilMs: 1000 + POLICY.openMs + POLICY.probeLeaseMs } });
    const halfOpen = wake.wake === 'probe' ? wake.breaker : open;
    // The probe's own attempt is admitted; while its claim holds nothing else is woken.
    expect(admitAttempt(halfOpen, 'oldest', 1000 + POLICY.openMs + 1, POLICY).admitted).toBe(true);
    expect(circuitWake(halfOpen, 'next', 1000 + POLICY.openMs + 1, POLICY)).toEqual({ wake: 'none' });
    // A probe that never reported is replaced once its claim lapses.
    expect(circuitWake(halfOpen, 'next', halfOpen.probeUntilMs!, POLICY)).toMatchObject({ wake: 'probe', breaker: { probeDeliveryId: 'next' } });
  });

  it('counts an outage from the first failure of the current run; an endpoint whose last attempt succeeded has none', () => {
    expect(outageExceeded(null, 10 ** 12, 1000)).toBe(false);
    expect(outageExceeded(5000, 5999, 1000)).toBe(false);
    expect(outageExceeded(5000, 6000, 1000)).toBe(true);
  });
});

describe('retry schedule and subscriptions', () => {
  it('gives the delay before each attempt and ends after the last', () => {
    const schedule = [0, 30_000, 300_000, 1_800_000, 14_400_000];
    expect([1, 2, 3, 4, 5, 6].map((n) => delayBeforeAttempt(schedule, n))).toEqual([0, 30_000, 300_000, 1_800_000, 14_400_000, undefined]);
    expect(delayBeforeAttempt(schedule, 0)).toBeUndefined();
    expect(retryScheduleProblems([])).not.toEqual([]);
    expect(retryScheduleProblems([0, -1])).not.toEqual([]);
    expect(retryScheduleProblems(schedule)).toEqual([]);
  });

  it('matches event types exactly, or all of them with "*"', () => {
    expect(subscribes(['invoice.paid'], 'invoice.paid')).toBe(true);
    expect(subscribes(['invoice.paid'], 'invoice.voided')).toBe(false);
    expect(subscribes(['*'], 'credit_note.issued')).toBe(true);
  });
});

describe('webhook configuration', () => {
  const base = { DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/billing', TEMPORAL_ADDRESS: '127.0.0.1:7233' };

  it('defaults to the SPEC: attempts at once, +30 s, +5 min, +30 min, +4 h; 10 s timeout; 5 failures open the circuit for 60 s', () => {
    expect(webhookSettingsOf(loadWorkerConfig(base))).toEqual({
      retryScheduleMs: [0, 30_000, 300_000, 1_800_000, 14_400_000],
      timeoutMs: 10_000,
      breakerThreshold: 5,
      breakerOpenMs: 60_000,
      allowPrivateUrls: true,
      disableAfterMs: 3 * 86_400_000,
    });
  });

  it('refuses private URLs only in production mode, unless explicitly allowed', () => {
    expect(webhookSettingsOf(loadWorkerConfig({ ...base, NODE_ENV: 'production' })).allowPrivateUrls).toBe(false);
    expect(webhookSettingsOf(loadWorkerConfig({ ...base, NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_URLS: 'true' })).allowPrivateUrls).toBe(true);
  });

  it('takes a schedule of whole seconds and names bad values', () => {
    const custom = loadWorkerConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '0, 1,2 ,3', WEBHOOK_BREAKER_OPEN_SECONDS: '5', WEBHOOK_TIMEOUT_MS: '2500' });
    expect(webhookSettingsOf(custom)).toMatchObject({ retryScheduleMs: [0, 1000, 2000, 3000], breakerOpenMs: 5000, timeoutMs: 2500 });
    expect(() => loadWorkerConfig({ ...base, WEBHOOK_RETRY_SCHEDULE: '0,30s' })).toThrow(/WEBHOOK_RETRY_SCHEDULE must be comma-separated whole seconds/);
    expect(() => loadWorkerConfig({ ...base, WEBHOOK_ALLOW_PRIVATE_URLS: 'yes' })).toThrow(ConfigError);
    expect(() => loadWorkerConfig({ ...base, WEBHOOK_BREAKER_THRESHOLD: '0' })).toThrow(/WEBHOOK_BREAKER_THRESHOLD/);
  });
});

describe('URL rules', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.0.0.1', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.0.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:2800:220:1::1', false],
    ['not-an-address', true],
    // Every IPv6 form that carries an IPv4 address is judged by that address.
    ['::127.0.0.1', true], // IPv4-compatible
    ['::7f00:1', true],
    ['::a9fe:a9fe', true], // 169.254.169.254
    ['::8.8.8.8', false],
    ['[::ffff:127.0.0.1]', true], // mapped, as a URL host writes it
    ['::FFFF:7F00:0001', true],
    ['0:0:0:0:0:ffff:7f00:1', true],
    ['::ffff:a00:1', true], // 10.0.0.1
    ['::ffff:0:127.0.0.1', true], // translated
    ['::ffff:0:808:808', false],
    ['64:ff9b::127.0.0.1', true], // NAT64
    ['64:ff9b::7f00:1', true],
    ['64:ff9b::a9fe:a9fe', true],
    ['64:ff9b::808:808', false],
    ['64:ff9b:1::808:808', true], // local-use NAT64
    ['2002:7f00:1::', true], // 6to4 of 127.0.0.1
    ['2002:c0a8:101::1', true], // 6to4 of 192.168.1.1
    ['2002:808:808::1', false],
    ['2001:0:7f00:1::', true], // Teredo server 127.0.0.1
    ['2001:0:808:808:0:0:80ff:fefe', true], // Teredo client 127.0.1.1 (stored inverted)
    ['2001:0:808:808:0:0:f7f7:f7f7', false], // Teredo server and client 8.8.8.8
    ['fec0::1', true], // site-local
    ['feff::1', true],
    ['2001:db8::1', true], // documentation
    ['100::1', true], // discard-only
    ['192.0.2.10', true],
    ['203.0.113.7', true],
  ])('%s is private: %s', (address, expected) => {
    expect(isPrivateAddress(address)).toBe(expected);
  });

  it.each([
    ['http://localhost/hooks', false],
    ['http://localhost./hooks', false],
    ['http://LOCALHOST../hooks', false],
    ['http://api.localhost/hooks', false],
    ['http://api.localhost./hooks', false],
    ['http://localhost.localdomain/hooks', false],
    ['http://ip6-localhost/hooks', false],
    ['http://127.0.0.1./hooks', false],
    ['http://2130706433/hooks', false], // 127.0.0.1 as one number
    ['http://0x7f.1/hooks', false],
    ['http://[::127.0.0.1]/hooks', false],
    ['http://[::ffff:7f00:1]/hooks', false],
    ['http://[64:ff9b::a9fe:a9fe]/latest/meta-data', false],
    ['http://[2002:a9fe:a9fe::]/hooks', false],
    ['http://[fec0::1]/hooks', false],
    ['https://8.8.8.8/hooks', true],
    ['https://[2606:2800:220:1::1]/hooks', true],
    ['https://[64:ff9b::808:808]/hooks', true],
  ])('production mode: %s is allowed: %s', async (url, allowed) => {
    const checked = checkEndpointUrl(url, false);
    if (allowed) await expect(checked).resolves.toBe(new URL(url).href);
    else await expect(checked).rejects.toThrow(/loopback|private/);
  });

  it('takes absolute http(s) URLs without credentials or fragments', () => {
    expect(parseEndpointUrl('https://example.com/hooks?x=1').href).toBe('https://example.com/hooks?x=1');
    for (const bad of ['ftp://example.com/', '/relative', 'https://u:p@example.com/', 'https://example.com/#frag', 'file:///etc/passwd']) {
      expect(() => parseEndpointUrl(bad), bad).toThrow(/url:/);
    }
  });
});

describe('signature', () => {
  it('is the lowercase hex HMAC-SHA256 of the raw body keyed with the secret', () => {
    const secret = newWebhookSecret();
    const body = '{"id":"01900000-0000-7000-8000-000000000000","type":"invoice.paid","timestamp":"2026-01-31T12:00:00.000Z","data":{"amount_nanos":"1"}}';
    const signature = signWebhookBody(secret, body);
    expect(signature).toBe(createHmac('sha256', Buffer.from(secret, 'utf8')).update(Buffer.from(body, 'utf8')).digest('hex'));
    expect(signature).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyWebhookSignature(secret, body, signature)).toBe(true);
    expect(verifyWebhookSignature(secret, `${body} `, signature)).toBe(false);
    expect(verifyWebhookSignature(newWebhookSecret(), body, signature)).toBe(false);
    expect(verifyWebhookSignature(secret, body, signature.toUpperCase())).toBe(false);
    expect(maskSecret(secret)).toBe(`whsec_…${secret.slice(-4)}`);
  });
});
