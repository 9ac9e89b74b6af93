/**
 * What the browser tests share: the system's Chromium (Debian package `chromium`; .ci/run installs
 * it), and the harness's API served on a port of its own (its signed links on that address) with a
 * headless Chromium on a fresh profile, both closed by `close`.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { chromium, type BrowserContext } from 'playwright-core';
import { freePort } from '../../src/dev/processes.js';
import { createApp } from '../../src/http/app.js';
import { ROUTES } from '../../src/http/routes/index.js';
import type { Harness } from './harness.js';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
/** Said in a skipped suite's name and on the console when Chromium is missing. */
export const CHROMIUM_SKIPPED = `skipped: ${CHROMIUM} is missing (Debian package \`chromium\`; .ci/run installs it)`;
if (!hasChromium) console.warn(`[browser tests] ${CHROMIUM_SKIPPED}`);

export interface ServedBrowser {
  /** Where the API listens, e.g. http://127.0.0.1:20345. */
  baseUrl: string;
  browser: BrowserContext;
  /** The browser's profile folder (removed by close). */
  profile: string;
  close(): Promise<void>;
}

export async function servedBrowser(h: Harness, options: { name: string; viewport?: { width: number; height: number }; acceptDownloads?: boolean }): Promise<ServedBrowser> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = createApp({ ...h.deps, settings: { ...h.deps.settings, hostedLinks: { ...h.deps.settings.hostedLinks!, baseUrl } } }, ROUTES);
  const server = await new Promise<ServerType>((resolve) => {
    const listening: ServerType = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' }, () => resolve(listening));
  });
  const profile = await mkdtemp(join(tmpdir(), `${options.name}-browser-`));
  const closeServer = () => new Promise<void>((resolve) => server.close(() => resolve()));
  let browser: BrowserContext;
  try {
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      ...(options.viewport ? { viewport: options.viewport } : {}),
      ...(options.acceptDownloads ? { acceptDownloads: true } : {}),
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  } catch (err) {
    await closeServer();
    await rm(profile, { recursive: true, force: true });
    throw err;
  }
  return {
    baseUrl,
    browser,
    profile,
    async close() {
      await browser.close();
      await closeServer();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
