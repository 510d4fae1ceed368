/**
 * What an HTTP answer is, as doctor reports it: the API's JSON, an HTML page (a Cloudflare page
 * named as such, since it means the request never reached the application), or something else.
 */
import type { TransportResponse } from '../../api/transport.js';
import { stripControl } from '../../io/format.js';

export type BodyShape =
  | { readonly kind: 'json'; readonly body: Record<string, unknown> }
  | { readonly kind: 'cloudflare'; readonly title: string }
  | { readonly kind: 'html'; readonly title: string }
  | { readonly kind: 'other'; readonly excerpt: string };

function titleOf(html: string): string {
  const match = /<title[^>]*>([^<]{0,120})<\/title>/i.exec(html);
  // A page's title is the server's text: it must not drive the terminal (escapes, a new title).
  return match ? stripControl(match[1]!.replace(/\s+/g, ' ')).trim() : '';
}

export function shapeOf(response: TransportResponse): BodyShape {
  const text = response.body.toString('utf8');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{')) {
    try {
      const body: unknown = JSON.parse(trimmed);
      if (typeof body === 'object' && body !== null && !Array.isArray(body)) return { kind: 'json', body: body as Record<string, unknown> };
    } catch {
      // Falls through to "other".
    }
  }
  const headers = response.headers;
  const isHtml = /text\/html/i.test(headers['content-type'] ?? '') || /^<(!doctype|html)/i.test(trimmed);
  const cloudflare = /cloudflare/i.test(headers['server'] ?? '') || headers['cf-ray'] !== undefined || /cloudflare/i.test(text.slice(0, 20_000));
  if (isHtml && cloudflare) return { kind: 'cloudflare', title: titleOf(text) };
  if (isHtml) return { kind: 'html', title: titleOf(text) };
  return { kind: 'other', excerpt: stripControl(trimmed.slice(0, 60).replace(/\s+/g, ' ')) };
}

/** One phrase for an answer that is not the API's JSON. */
export function describeShape(shape: BodyShape, status: number): string {
  switch (shape.kind) {
    case 'json':
      return `JSON (HTTP ${status})`;
    case 'cloudflare':
      return `a Cloudflare page${shape.title ? ` ("${shape.title}")` : ''} (HTTP ${status}), not the API: the request was stopped before the application`;
    case 'html':
      return `an HTML page${shape.title ? ` ("${shape.title}")` : ''} (HTTP ${status}), not the API's JSON`;
    case 'other':
      return `HTTP ${status} with a body that is not JSON${shape.excerpt ? ` ("${shape.excerpt}")` : ''}`;
  }
}
