/**
 * A QR code drawn with text blocks, for the 2FA walkthrough (docs/contracts.md: terminal QR via
 * qrcode-terminal). qrcode-terminal is loaded only here, when a code is really drawn, and
 * renders into a string: the caller prints it to stderr, never stdout.
 */

/** The QR code of `text` as lines of half blocks (two rows of modules a line). */
export async function renderQr(text: string): Promise<string> {
  const { default: qrcode } = await import('qrcode-terminal');
  return new Promise((resolve) => {
    qrcode.generate(text, { small: true }, (drawn) => resolve(drawn.endsWith('\n') ? drawn : `${drawn}\n`));
  });
}
