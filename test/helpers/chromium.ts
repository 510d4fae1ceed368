/**
 * Headless Chromium for the page tests (puppeteer-core, no browser download): where the binary
 * is, and the few ways a test reads a page as a person would (fields by their labels, the text
 * shown). A test file skips, saying why, when `CHROMIUM` is undefined.
 */
import { existsSync } from 'node:fs';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) => existsSync(candidate));

export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error('no chromium binary');
  const puppeteer = (await import('puppeteer-core')).default;
  return puppeteer.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--headless=new'] });
}

/** The field a label names, as assistive technology finds it (fails when the label is missing). */
export async function field(page: Page, label: string): Promise<ElementHandle> {
  const handle = await page.waitForSelector(`::-p-aria(${label}[role="textbox"])`, { timeout: 5000 });
  if (handle === null) throw new Error(`no field labelled ${label}`);
  return handle;
}

/** The text the page shows. */
export async function text(page: Page): Promise<string> {
  return page.$eval('body', (el) => (el as unknown as { innerText: string }).innerText);
}
