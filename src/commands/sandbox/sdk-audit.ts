/**
 * `kactl sandbox connect <sdk> --audit`: the lines that make a program on each client library
 * read the sandbox and the test identity from the variables `kactl sandbox audit` sets
 * (src/sandbox/audit/program-env.ts), in place of the strings `kactl sandbox connect <sdk>`
 * fills in for a running sandbox. Nothing is looked up: the values come at run time, so this
 * needs no sandbox. As the connect sheets (sdk-targets.ts), code is printed only where the names
 * are the library's documented interface; elsewhere a line says which string each replaces.
 */
import type { Context } from '../../context.js';
import { wrapWords } from '../../io/wrap.js';
import { AUDIT_VARIABLES } from '../../sandbox/audit/program-env.js';
import { HOSTED_API_URL, HOSTED_KEY_SHORT, type SdkId } from './sdk-targets.js';

export interface AuditSheet {
  readonly sdk: SdkId;
  readonly title: string;
  readonly api: '1.3' | '1.2';
  /** The audit to run (with the example's usual start command). */
  readonly command: string;
  readonly code: readonly { readonly file: string; readonly lines: readonly string[] }[];
  readonly notes: readonly string[];
}

const STDIN_NOTE = 'Where it asks for the license on its input, give the audit --key-stdin instead of changing that line.';

/** An official 1.3 example: its library file's two strings, then its app values and credentials, each read by `read('NAME')`. */
function official(sdk: SdkId, title: string, libraryFile: string, mainFile: string, read: (name: string) => string, command: string, extra: { readonly head?: string; readonly notes?: readonly string[] } = {}): AuditSheet {
  return {
    sdk,
    title,
    api: '1.3',
    command,
    code: [
      {
        file: libraryFile,
        lines: [
          ...(extra.head === undefined ? [] : [extra.head]),
          `in place of "${HOSTED_API_URL}": ${read('KEYAUTH_URL')}`,
          `in place of the hosted key ${HOSTED_KEY_SHORT}: ${read('KEYAUTH_PUBLIC_KEY')}`,
        ],
      },
      {
        file: mainFile,
        lines: [
          `name: ${read('KEYAUTH_NAME')}`,
          `ownerid: ${read('KEYAUTH_OWNERID')}`,
          `version: ${read('KEYAUTH_VERSION')}`,
          `the license key: ${read('KEYAUTH_LICENSE')}`,
          `username and password: ${read('KEYAUTH_USERNAME')}, ${read('KEYAUTH_PASSWORD')}`,
        ],
      },
    ],
    notes: [STDIN_NOTE, ...(extra.notes ?? [])],
  };
}

const SHEETS: Readonly<Record<SdkId, () => AuditSheet>> = {
  python: () => official('python', 'Python (official KeyAuth-Python-Example)', 'keyauth.py', 'main.py', (name) => `os.environ["${name}"]`, 'kactl sandbox audit -- python3 main.py', { head: 'import os' }),
  csharp: () => official('csharp', 'C# (official KeyAuth-CSHARP-Example)', 'KeyAuth.cs', 'Program.cs', (name) => `Environment.GetEnvironmentVariable("${name}")`, 'kactl sandbox audit -- dotnet run'),
  cpp: () =>
    official('cpp', 'C++ (official KeyAuth-CPP-Example)', "the library's auth.cpp", 'main.cpp', (name) => `std::getenv("${name}")`, 'kactl sandbox audit -- ./example', {
      notes: ['The C++ library talks HTTPS on port 443 only, and the audit serves plain HTTP on a free port of 127.0.0.1: audit a build whose transport takes the URL as given.'],
    }),
  php: () => official('php', 'PHP (official KeyAuth-PHP-Example)', 'keyauth.php', "the example's settings", (name) => `getenv('${name}')`, 'kactl sandbox audit --seed seed.yaml -- php index.php', {
    notes: ['It sends no HWID: seed the app with Force HWID off (seed.yaml: app: { force-hwid: false }).'],
  }),
  go: () => official('go', 'Go (official KeyAuth-Go-Example)', 'KeyAuth/KeyAuth.go', 'main.go', (name) => `os.Getenv("${name}")`, 'kactl sandbox audit -- go run .'),
  react: () =>
    official('react', 'React / Next.js, TypeScript (official KeyAuth-React-Example)', 'src/lib/keyauth.ts', "the example's settings", (name) => `process.env.${name}`, 'kactl sandbox audit --seed seed.yaml -- npx tsx audit-login.ts', {
      notes: ['A browser page is not a command: audit a small Node script that logs in through src/lib/keyauth.ts. It sends no HWID: seed Force HWID off (seed.yaml: app: { force-hwid: false }).'],
    }),
  java: () => ({
    sdk: 'java',
    title: 'Java (Tentoxa/KeyAuth-Java)',
    api: '1.2',
    command: 'kactl sandbox audit --api 1.2 -- java -jar app.jar',
    code: [{ file: 'your code', lines: ['KeyAuth keyAuthAPI = new KeyAuth(System.getenv("KEYAUTH_NAME"), System.getenv("KEYAUTH_OWNERID"), System.getenv("KEYAUTH_VERSION"), System.getenv("KEYAUTH_URL"));', 'the license key: System.getenv("KEYAUTH_LICENSE")'] }],
    notes: [STDIN_NOTE, 'It checks no signature: expect the audit to report the forged, unsigned, tampered and replayed answers accepted.'],
  }),
  node: () => ({
    sdk: 'node',
    title: "Node (keyauth-js @keyauthjs/client; and kactl's own client)",
    api: '1.2',
    command: 'kactl sandbox audit --api 1.2 -- node app.mjs',
    code: [
      {
        file: 'keyauth-js',
        lines: [
          'new ClientApi({ name: process.env.KEYAUTH_NAME, ownerid: process.env.KEYAUTH_OWNERID, ver: process.env.KEYAUTH_VERSION }, { baseUrl: process.env.KEYAUTH_URL })',
          'the license key: process.env.KEYAUTH_LICENSE',
        ],
      },
      { file: 'kactl/client (1.3 or 1.2)', lines: ['see examples/audit/sound.mjs: baseUrl is KEYAUTH_URL without /api/1.x/, publicKey KEYAUTH_PUBLIC_KEY (1.3) or secret KEYAUTH_SECRET (1.2)'] },
    ],
    notes: ['keyauth-js sends no HWID with license(): seed Force HWID off. kactl/client programs run with --api 1.3 as well.'],
  }),
};

export function auditSheet(sdk: SdkId): AuditSheet {
  return SHEETS[sdk]();
}

/** `--json`: the sheet, and every variable the audit sets. */
export function auditSheetJson(sheet: AuditSheet): Record<string, unknown> {
  return { ...sheet, variables: [...AUDIT_VARIABLES] };
}

export function renderAuditSheet(sheet: AuditSheet, width: number): string {
  const out = wrapWords(`${sheet.title}, under kactl sandbox audit (client API ${sheet.api}): read the audit's variables`, width, '', '  ');
  for (const block of sheet.code) out.push(`  ${block.file}:`, ...block.lines.map((line) => `    ${line}`));
  out.push(`  Run: ${sheet.command}`);
  for (const note of sheet.notes) out.push(...wrapWords(note, width, '  '));
  return `${out.join('\n')}\n`;
}

/** What `kactl sandbox connect <sdk> --audit` prints. */
export function printAuditSheet(ctx: Context, sdk: SdkId): void {
  const sheet = auditSheet(sdk);
  if (ctx.output.wantsJson) return ctx.output.json(auditSheetJson(sheet));
  ctx.io.out(renderAuditSheet(sheet, Math.max(40, ctx.io.columns - 1)));
}
