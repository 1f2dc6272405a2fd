// axe-core in a page under test: the library is evaluated through the DevTools protocol (the
// pages' CSP allows no injected script tag, and this needs none), then run over the whole page.
// The gate of the browser suites: no serious or critical violation on any dashboard or portal page.
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

let source: string | null = null;

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

/** Serious and critical violations on the page as it is now (empty when clean). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[]; failureSummary?: string }> }> }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`) }));
  });
}

/** A readable list of violations for an assertion message. */
export function describeViolations(where: string, vs: AxeViolation[]): string {
  return vs.map((v) => `${where}: [${v.impact}] ${v.id} — ${v.help}\n    ${v.nodes.join('\n    ')}`).join('\n');
}

/**
 * Whether the page scrolls sideways (its content is wider than the viewport), and whether the
 * given element's box lies fully within the viewport's width.
 */
export async function fitsWidth(page: Page, selector: string): Promise<{ pageScrolls: boolean; visible: boolean; box: string }> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel) as HTMLElement | null;
    const r = el?.getBoundingClientRect();
    const w = document.documentElement.clientWidth;
    const visible = Boolean(el && r && r.width > 0 && r.height > 0 && r.left >= 0 && r.right <= w && getComputedStyle(el).visibility !== 'hidden');
    // A scroll box inside the element's ancestors that clips it counts as hidden too.
    let clipped = false;
    for (let p = el?.parentElement; p && r; p = p.parentElement) {
      const pr = p.getBoundingClientRect();
      const ox = getComputedStyle(p).overflowX;
      if ((ox === 'auto' || ox === 'scroll' || ox === 'hidden') && (r.left < pr.left || r.right > pr.right + 0.5)) clipped = true;
    }
    return { pageScrolls: document.documentElement.scrollWidth > w, visible: visible && !clipped, box: r ? `${Math.round(r.left)}–${Math.round(r.right)} of ${w}` : 'none' };
  }, selector);
}
