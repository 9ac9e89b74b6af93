/**
 * The operator views' HTML: one page frame (its own inline stylesheet, allowed by its hash; no
 * script anywhere), tables, server-rendered SVG bar charts whose numbers are also in a table, and the
 * forms (each carrying the session's CSRF token). Escaping is the hosted pages' (documents/html.ts).
 */
import { createHash } from 'node:crypto';
import { esc } from '../documents/html.js';

export { esc };

const STYLE = `
body{font:14px/1.45 -apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1f2328;background:#f6f8fa;margin:0}
nav{display:flex;gap:16px;align-items:center;background:#24292f;color:#fff;padding:10px 24px}nav a{color:#fff;font-weight:600;text-decoration:none}
nav form{margin-left:auto}nav button{font:inherit;background:transparent;color:#fff;border:1px solid #6e7781;border-radius:6px;padding:3px 10px;cursor:pointer}
main{max-width:1100px;margin:24px auto;padding:0 24px}
section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:20px 24px;margin:0 0 20px}
h1{font-size:24px;margin:0 0 16px}h2{font-size:18px;margin:0 0 12px}h3{font-size:15px;margin:16px 0 8px}
table{width:100%;border-collapse:collapse;margin:8px 0}th{text-align:left;color:#59636e;font-size:12px;border-bottom:1px solid #d0d7de;padding:6px 4px}
td{padding:5px 4px;vertical-align:top;border-bottom:1px solid #eaeef2}.num{text-align:right;white-space:nowrap}.mono{font-family:ui-monospace,Menlo,monospace;font-size:12px}
dl{display:grid;grid-template-columns:190px 1fr;gap:2px 12px;margin:0}dt{color:#59636e;font-weight:600}dd{margin:0}
.notice{margin:0 0 20px;padding:12px 16px;border-radius:6px;border:1px solid #d0d7de;background:#fff}.notice.ok{border-color:#1a7f37;background:#dafbe1}.notice.error{border-color:#cf222e;background:#ffebe9}
.muted{color:#59636e}.error{color:#cf222e}.badge{font-size:12px;font-weight:600;border:1px solid #d0d7de;border-radius:10px;padding:0 8px}
button.primary,form.retry button{font:inherit;font-weight:600;padding:4px 12px;border-radius:6px;border:1px solid #1f883d;background:#1f883d;color:#fff;cursor:pointer}
form.retry{margin:0}.login{max-width:420px;margin:60px auto}.login label{display:block;font-weight:600;margin:0 0 6px}
.login input{font:inherit;width:100%;box-sizing:border-box;padding:8px;border:1px solid #d0d7de;border-radius:6px;margin:0 0 12px}
.chart{width:100%;max-width:760px;height:auto;display:block}.chart .bar{fill:#1f883d}.chart .bar.aged{fill:#9a6700}.chart .bar.aged.b0{fill:#1f883d}
.chart .axis{stroke:#d0d7de}.chart text{font-size:11px;fill:#59636e}.chart text.value{fill:#1f2328;font-size:10px}
progress{width:220px;height:14px;vertical-align:middle}
`;

/**
 * Nothing may load or run but the page's one inline stylesheet (by its hash): no script, no frame,
 * no base; forms post only to this service, and no page may frame an operator view.
 */
export const OPERATOR_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** What every signed-in page's frame needs: the CSRF token its forms carry. */
export interface PageSession {
  csrfToken: string;
}

export interface PageOptions {
  title: string;
  body: string;
  /** Signed in: the navigation and the Log out form. */
  session?: PageSession | undefined;
  /** Reloads the page after this many seconds (a running advance), without script. */
  refreshSeconds?: number | undefined;
}

/** The hidden field naming the session's CSRF token, for every form of a signed-in page. */
export const csrfField = (session: PageSession): string => `<input type="hidden" name="csrf_token" value="${esc(session.csrfToken)}">`;

export function operatorPage(options: PageOptions): string {
  const refresh = options.refreshSeconds === undefined ? '' : `<meta http-equiv="refresh" content="${options.refreshSeconds}">\n`;
  const nav = options.session
    ? `<nav><a href="/admin">Billing operator</a><form method="post" action="/admin/logout">${csrfField(options.session)}<button type="submit">Log out</button></form></nav>`
    : '<nav><a href="/admin">Billing operator</a></nav>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
${refresh}<title>${esc(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
${nav}
<main>
${options.body}
</main>
</body>
</html>
`;
}

/** A table: header cells, then rows of cells already rendered as HTML; `numeric` columns align right. */
export function table(header: string[], rows: string[][], options: { numeric?: readonly number[]; caption?: string; empty?: string } = {}): string {
  if (rows.length === 0 && options.empty !== undefined) return `<p class="muted">${esc(options.empty)}</p>`;
  const numeric = new Set(options.numeric ?? []);
  const cell = (tag: 'th' | 'td', text: string, i: number) => `<${tag}${numeric.has(i) ? ' class="num"' : ''}>${text}</${tag}>`;
  const caption = options.caption ? `<caption class="muted">${esc(options.caption)}</caption>` : '';
  return `<table>${caption}<thead><tr>${header.map((h, i) => cell('th', esc(h), i)).join('')}</tr></thead><tbody>${rows
    .map((row) => `<tr>${row.map((c, i) => cell('td', c, i)).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

/** A definition list of label and HTML value pairs. */
export const facts = (pairs: [string, string][]): string => `<dl>${pairs.map(([label, value]) => `<dt>${esc(label)}</dt><dd>${value}</dd>`).join('')}</dl>`;

export const link = (href: string, text: string): string => `<a href="${esc(href)}">${esc(text)}</a>`;

/** A link out of the operator views (the Temporal UI), opened without this page as its opener or referrer. */
export const externalLink = (href: string, text: string): string => `<a href="${esc(href)}" rel="noopener noreferrer" target="_blank">${esc(text)}</a>`;

/** One bar of a chart: its label, its raw value (money raw units) and the value as printed. */
export interface Bar {
  label: string;
  value: bigint;
  text: string;
}

const CHART = { width: 760, height: 240, left: 12, right: 12, top: 22, bottom: 34 } as const;

/**
 * A bar chart as inline SVG (no script): bars scaled to the largest value (negative values drawn as
 * empty bars at the axis), each labelled below and its printed value above, and each carrying its
 * raw value (`data-value`) and a tooltip. The same numbers are in the table beside it.
 */
export function barChart(title: string, bars: readonly Bar[], barClass: (index: number) => string = () => 'bar'): string {
  const plotWidth = CHART.width - CHART.left - CHART.right;
  const plotHeight = CHART.height - CHART.top - CHART.bottom;
  const max = bars.reduce((m, b) => (b.value > m ? b.value : m), 0n);
  const slot = plotWidth / Math.max(bars.length, 1);
  const barWidth = Math.max(4, slot * 0.7);
  const baseY = CHART.top + plotHeight;
  // Geometry only: the ratio of each value to the largest, to a thousandth of the plot's height.
  const heightOf = (value: bigint): number => (max <= 0n || value <= 0n ? 0 : (Number((value * 1000n) / max) / 1000) * plotHeight);
  const rects = bars
    .map((bar, i) => {
      const x = CHART.left + i * slot + (slot - barWidth) / 2;
      const h = heightOf(bar.value);
      const cx = (x + barWidth / 2).toFixed(1);
      return (
        `<g class="point"><rect class="${esc(barClass(i))}" x="${x.toFixed(1)}" y="${(baseY - h).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${h.toFixed(1)}" ` +
        `data-label="${esc(bar.label)}" data-value="${bar.value.toString()}"><title>${esc(`${bar.label}: ${bar.text}`)}</title></rect>` +
        `<text class="value" x="${cx}" y="${(baseY - h - 4).toFixed(1)}" text-anchor="middle">${esc(bar.text)}</text>` +
        `<text x="${cx}" y="${baseY + 16}" text-anchor="middle">${esc(bar.label)}</text></g>`
      );
    })
    .join('');
  return (
    `<svg class="chart" viewBox="0 0 ${CHART.width} ${CHART.height}" role="img" aria-label="${esc(title)}" xmlns="http://www.w3.org/2000/svg">` +
    `<title>${esc(title)}</title><line class="axis" x1="${CHART.left}" y1="${baseY}" x2="${CHART.width - CHART.right}" y2="${baseY}"></line>${rects}</svg>`
  );
}

/** The sign-in page: the admin API key, posted once to open a session (never put in a URL). */
export function loginPage(formToken: string, error?: string): string {
  const problem = error ? `<p class="notice error" role="alert">${esc(error)}</p>` : '';
  return operatorPage({
    title: 'Sign in · Billing operator',
    body: `<section class="login"><h1>Sign in</h1>${problem}<form method="post" action="/admin/login"><input type="hidden" name="form_token" value="${esc(formToken)}">
<label for="api_key">Admin API key</label><input id="api_key" name="api_key" type="password" autocomplete="off" required placeholder="bsk_live_…">
<button class="primary" type="submit">Sign in</button></form><p class="muted">The session lasts at most 8 hours; Log out ends it.</p></section>`,
  });
}
