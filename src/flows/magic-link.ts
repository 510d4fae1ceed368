/**
 * `approve: magic-link`: opens the approval page a magic link points to and submits its form
 * with the approve button, as the user's browser would.
 */

function attribute(tag: string, name: string): string | undefined {
  return new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`, 'i').exec(tag)?.[1];
}

export async function approveMagicLink(link: string): Promise<{ ok: boolean; message: string }> {
  const page = await fetch(link);
  const html = await page.text();
  const form = /<form\b[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form) return { ok: false, message: `the magic link page has no form (HTTP ${page.status})` };
  const formTag = /<form\b[^>]*>/i.exec(form[0])![0];
  const fields = new URLSearchParams();
  for (const input of form[1]!.match(/<input\b[^>]*>/gi) ?? []) {
    const name = attribute(input, 'name');
    if (name !== undefined) fields.append(name, attribute(input, 'value') ?? '');
  }
  const button = (form[1]!.match(/<button\b[^>]*>[\s\S]*?<\/button>/gi) ?? []).find((b) => /approve/i.test(b));
  if (!button) return { ok: false, message: 'the magic link page has no approve button' };
  const name = attribute(button, 'name');
  if (name !== undefined) fields.append(name, attribute(button, 'value') ?? '');
  const target = new URL(attribute(formTag, 'action') ?? link, link);
  const answer = await fetch(target, { method: (attribute(formTag, 'method') ?? 'POST').toUpperCase(), body: fields, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
  const text = await answer.text();
  const ok = answer.ok && /approved/i.test(text);
  return { ok, message: ok ? 'approved' : `the approval was refused (HTTP ${answer.status})` };
}
