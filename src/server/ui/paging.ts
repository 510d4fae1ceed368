/**
 * Lists that may be long (a sandbox can hold 100,000 keys) are read a page at a time, with the
 * count of all matching rows: `?page=N`, 50 rows a page.
 */
import type { Params } from '../dispatch/params.js';
import type { SqlValue, Store } from '../store/store.js';
import { html, type Html } from '../client/page-layout.js';
import { count } from './layout.js';

export const PAGE_SIZE = 50;

export interface Paged<T> {
  readonly rows: T[];
  readonly total: number;
  /** 1-based, within 1..pages. */
  readonly page: number;
  readonly pages: number;
}

/** Which rows: `from` is a table and its WHERE clause, written in code (never from a request). */
export interface RowQuery {
  readonly from: string;
  readonly args: readonly SqlValue[];
  readonly order: string;
}

/** The page the query string asks for (1 when absent or not a whole number). */
export function pageAsked(params: Params): number {
  const text = params.get('page') ?? '1';
  return /^\d{1,9}$/.test(text) && Number(text) >= 1 ? Number(text) : 1;
}

export function paged<T>(store: Store, query: RowQuery, page: number, size = PAGE_SIZE): Paged<T> {
  const total = store.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${query.from}`, ...query.args)?.n ?? 0;
  const pages = Math.max(1, Math.ceil(total / size));
  const shown = Math.min(page, pages);
  const rows = store.all<T>(`SELECT * FROM ${query.from} ORDER BY ${query.order} LIMIT ? OFFSET ?`, ...query.args, size, (shown - 1) * size);
  return { rows, total, page: shown, pages };
}

/** "51–100 of 100,000" and links to the pages before and after; `query` keeps the view's filters. */
export function pager(list: Paged<unknown>, path: string, what: string, query: Readonly<Record<string, string | undefined>> = {}): Html {
  if (list.total === 0) return html`<p class="note">No ${what}.</p>`;
  const first = (list.page - 1) * PAGE_SIZE + 1;
  const last = first + list.rows.length - 1;
  const link = (page: number, label: string, rel: string): Html => html`<a href="${pageUrl(path, query, page)}" rel="${rel}">${label}</a>`;
  const previous = list.page > 1 ? link(list.page - 1, 'Previous page', 'prev') : html``;
  const next = list.page < list.pages ? link(list.page + 1, 'Next page', 'next') : html``;
  return html`<p class="pager"><span>${what} ${count(first)}–${count(last)} of ${count(list.total)}</span>${previous}${next}</p>`;
}

export function pageUrl(path: string, query: Readonly<Record<string, string | undefined>>, page: number): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  if (page > 1) search.set('page', String(page));
  return search.size === 0 ? path : `${path}?${search.toString()}`;
}

/** A LIKE pattern that finds `text` anywhere, with `%`, `_` and `\` taken literally (use `ESCAPE '\'`). */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
