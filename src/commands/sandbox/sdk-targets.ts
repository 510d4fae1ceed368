/**
 * What a program built on each client library changes to talk to a sandbox instead of the
 * hosted service (docs/testing-your-program.md says the same for people). The official 1.3
 * SDKs carry the hosted service's URL and public key as literal strings in their library file:
 * the lines say which string to replace with what, rather than guess at variable names that
 * change between releases. Code is printed only where the names are part of the library's
 * documented interface (the C++ example's `main.cpp` strings, KeyAuth-Java's constructor).
 */
import { HOSTED_PUBLIC_KEY } from '../../config/hosted.js';
import { currentLibraryKeyLines, CPP_KEY_MASKS, fnv1a64, maskedKey, olderCopyKeyLine } from './cpp-public-key.js';
import { isLoopbackAddress } from './machine-addresses.js';

export const HOSTED_API_URL = 'https://keyauth.win/api/1.3/';
/** The Host header keyauth-js sends on every call, whatever its base URL. */
const KEYAUTH_JS_HOST = 'keyauth.win';

/** The running sandbox and its app, as the connect command found them. */
export interface SandboxValues {
  /** The server's root, e.g. `https://127.0.0.1:8443`. */
  readonly baseUrl: string;
  readonly name: string;
  readonly ownerid: string;
  readonly version: string;
  readonly secret: string | undefined;
  readonly publicKey: string | undefined;
  /** HTTPS only. */
  readonly caFile: string | undefined;
  readonly hostname: string | undefined;
  /** This machine's non-loopback addresses (machine-addresses.ts), for the C++ route. */
  readonly machineAddresses: readonly string[];
  /** The sandbox's profile, and its store when it is not the data folder's default (for the start command). */
  readonly profile?: string | undefined;
  readonly store?: string | undefined;
  /** `process.platform` of this machine: port 443 needs root everywhere but Windows. */
  readonly platform?: string | undefined;
}

export interface TargetLine {
  readonly label: string;
  readonly value: string;
  /** Where it goes, or what it replaces. */
  readonly where?: string;
}

export interface TargetSheet {
  readonly sdk: SdkId;
  readonly title: string;
  readonly api: '1.3' | '1.2';
  /** The API URL this library is given. */
  readonly url: string;
  /** Code to paste, per file. */
  readonly code: readonly { readonly file: string; readonly lines: readonly string[] }[];
  readonly lines: readonly TargetLine[];
  /** Whether the library sends a HWID at login (otherwise Force HWID must be off). */
  readonly sendsHwid: boolean;
  /** When it sends none, in words (default: never). */
  readonly withoutHwid?: string;
  /** Whether it takes the app secret (only older 1.2 examples of the official SDKs). */
  readonly showsSecret: boolean;
  readonly notes: readonly string[];
}

export const SDK_IDS = ['python', 'csharp', 'cpp', 'php', 'go', 'react', 'java', 'node'] as const;
export type SdkId = (typeof SDK_IDS)[number];

/** Other names people type for the same library. */
const ALIASES: Readonly<Record<string, SdkId>> = {
  py: 'python',
  'c#': 'csharp',
  cs: 'csharp',
  dotnet: 'csharp',
  'c++': 'cpp',
  typescript: 'react',
  ts: 'react',
  nextjs: 'react',
  golang: 'go',
  javascript: 'node',
  js: 'node',
  'keyauth-js': 'node',
  kactl: 'node',
};

export function resolveSdk(raw: string): SdkId | undefined {
  const name = raw.trim().toLowerCase();
  return (SDK_IDS as readonly string[]).includes(name) ? (name as SdkId) : ALIASES[name];
}

export const HOSTED_KEY_SHORT = `${HOSTED_PUBLIC_KEY.slice(0, 8)}…${HOSTED_PUBLIC_KEY.slice(-4)}`;
const FORCE_HWID_OFF = 'kactl app set --force-hwid false';

function portOf(baseUrl: string): number {
  const url = new URL(baseUrl);
  return url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
}

/** The usual pair of an official 1.3 SDK: the two strings of its library file to replace. */
function hostedStrings(libraryFile: string, url: string, values: SandboxValues): TargetLine[] {
  return [
    { label: 'API URL', value: url, where: `in ${libraryFile}, in place of ${HOSTED_API_URL}` },
    { label: 'public key', value: values.publicKey ?? '(not in the profile: see the ready line)', where: `in ${libraryFile}, in place of the hosted key ${HOSTED_KEY_SHORT}` },
  ];
}

function appLines(where: string, values: SandboxValues): TargetLine[] {
  return [
    { label: 'name', value: values.name, where },
    { label: 'ownerid', value: values.ownerid },
    { label: 'version', value: values.version },
  ];
}

/** Only older (client API 1.2) editions of the official examples take the app secret. */
function secretLine(values: SandboxValues): TargetLine[] {
  return values.secret === undefined ? [] : [{ label: 'secret', value: values.secret, where: 'only older examples (client API 1.2) take one; 1.3 needs none' }];
}

function trustNote(values: SandboxValues, how: string): string[] {
  return values.caFile === undefined ? [] : [`HTTPS: ${how}`];
}

function apiUrl(values: SandboxValues, api: TargetSheet['api']): string {
  return `${values.baseUrl}/api/${api}/`;
}

/** The authority file, quoted for the shell lines of the notes. */
function quotedCa(values: SandboxValues): string {
  return `"${values.caFile ?? ''}"`;
}

/** An official 1.3 example: two strings of its library file, the app's values, how it trusts HTTPS. */
interface OfficialExample {
  readonly title: string;
  readonly libraryFile: string;
  /** Where the name, ownerid and version go. */
  readonly appWhere: string;
  readonly sendsHwid: boolean;
  /** Older (1.2) editions of the example take the app secret. */
  readonly showsSecret: boolean;
  /** Said before the trust note. */
  readonly notes?: readonly string[];
  /** How a program on it trusts the sandbox's authority; `ca` is the quoted file. */
  readonly trust: (ca: string) => string;
}

const OFFICIAL_EXAMPLES: Readonly<Record<'python' | 'csharp' | 'php' | 'go' | 'react', OfficialExample>> = {
  python: {
    title: 'Python (official KeyAuth-Python-Example)',
    libraryFile: 'keyauth.py',
    appWhere: 'the api(...) arguments in main.py',
    sendsHwid: true,
    showsSecret: true,
    trust: (ca) => `run it with REQUESTS_CA_BUNDLE=${ca} (the example uses requests), or trust the authority system-wide (kactl sandbox ca --help).`,
  },
  csharp: {
    title: 'C# (official KeyAuth-CSHARP-Example, Console or Form)',
    libraryFile: 'KeyAuth.cs',
    appWhere: 'the new api(...) arguments in Program.cs',
    sendsHwid: true,
    showsSecret: true,
    trust: (ca) => `.NET reads the Windows store: certutil -addstore -f Root ${ca} in an administrator's shell.`,
  },
  php: {
    title: 'PHP (official KeyAuth-PHP-Example)',
    libraryFile: 'keyauth.php',
    appWhere: "the example's application settings (its name and ownerid variables)",
    sendsHwid: false,
    showsSecret: false,
    trust: (ca) => `PHP's curl reads curl.cainfo: set curl.cainfo = ${ca} in php.ini, or trust the authority system-wide.`,
  },
  go: {
    title: 'Go (official KeyAuth-Go-Example)',
    libraryFile: 'KeyAuth/KeyAuth.go',
    appWhere: 'the KeyAuthApp.Api(...) arguments in main.go',
    sendsHwid: true,
    showsSecret: false,
    trust: (ca) => `on Linux run it with SSL_CERT_FILE=${ca}; on Windows and macOS trust the authority in the system store (kactl sandbox ca --help).`,
  },
  react: {
    title: 'React / Next.js, TypeScript (official KeyAuth-React-Example)',
    libraryFile: 'src/lib/keyauth.ts',
    appWhere: 'the application settings the example gives its KeyAuth client',
    sendsHwid: false,
    showsSecret: false,
    notes: ['The browser calls the sandbox directly: a sandbox on loopback already allows it (Access-Control-Allow-Origin: *).'],
    trust: () => 'the browser reads the system store (Firefox its own): trust the authority there (kactl sandbox ca --help).',
  },
};

function officialSheet(sdk: keyof typeof OFFICIAL_EXAMPLES): (values: SandboxValues) => TargetSheet {
  const example = OFFICIAL_EXAMPLES[sdk];
  return (values) => {
    const api13 = apiUrl(values, '1.3');
    return {
      sdk,
      title: example.title,
      api: '1.3',
      url: api13,
      code: [],
      lines: [...hostedStrings(example.libraryFile, api13, values), ...appLines(example.appWhere, values), ...(example.showsSecret ? secretLine(values) : [])],
      sendsHwid: example.sendsHwid,
      showsSecret: example.showsSecret,
      notes: [...(example.notes ?? []), ...trustNote(values, example.trust(quotedCa(values)))],
    };
  };
}

/**
 * The route the current C++ library accepts: HTTPS on port 443 at a non-loopback address of this
 * machine, named by the certificate. The running sandbox's, when it is served so; else the start
 * command that serves it so, at the first address this machine has.
 */
export interface CppRoute {
  /** The address the program uses, or undefined when this machine has none but loopback. */
  readonly host: string | undefined;
  /** Whether the running sandbox is already served there (HTTPS, port 443). */
  readonly ready: boolean;
  /** What to run first when it is not. */
  readonly startCommands: readonly string[];
}

export function cppRoute(values: SandboxValues): CppRoute {
  const bound = new URL(values.baseUrl).hostname.replace(/^\[|\]$/g, '');
  const named = values.hostname !== undefined && /^[\d.]+$|:/.test(values.hostname) ? values.hostname : undefined;
  const served = [bound, named].find((host) => host !== undefined && host !== '0.0.0.0' && host !== '::' && !isLoopbackAddress(host));
  const ready = served !== undefined && values.caFile !== undefined && portOf(values.baseUrl) === 443;
  const host = served ?? values.machineAddresses[0];
  if (ready) return { host, ready, startCommands: [] };
  const store = values.store === undefined ? '' : ` --data '${values.store}'`;
  const start = `kactl sandbox start --tls --host ${host ?? 'ADDRESS'} --port 443${store} --detach`;
  return { host, ready, startCommands: [`kactl sandbox stop${values.profile === undefined ? '' : ` ${values.profile}`}`, start] };
}

/** `https://host/api/1.3/`: port 443 is the URL's own, so it names none. */
function cppUrl(host: string | undefined): string {
  const name = host === undefined ? 'ADDRESS' : host.includes(':') ? `[${host}]` : host;
  return `https://${name}/api/1.3/`;
}

function cppNotes(values: SandboxValues, route: CppRoute): string[] {
  const notes: string[] = [];
  if (!route.ready) {
    notes.push(
      route.host === undefined
        ? 'This machine has no address but loopback, which the current C++ library refuses: give it one (a LAN, WSL2, VM or container address) and run this again.'
        : `The current C++ library refuses loopback and accepts HTTPS on port 443 only: serve the sandbox at ${route.host} first (kactl asks before its authority may sign for that address):`,
      ...route.startCommands.map((command) => `  ${command}`),
    );
    if (values.store === ':memory:') notes.push('This sandbox keeps nothing (--data :memory:): the one started so has another app and public key; run kactl sandbox connect cpp again once it serves.');
    if (values.platform !== 'win32') notes.push('Port 443 needs root here: allow it once with  sudo sysctl net.ipv4.ip_unprivileged_port_start=443  (Linux), or run kactl as root.');
    const others = values.machineAddresses.filter((address) => address !== route.host);
    if (route.host !== undefined && others.length > 0) notes.push(`Other addresses of this machine: ${others.join(', ')} (use the one the program's machine reaches; --host picks it).`);
  }
  notes.push(`Trust the authority in the Windows store: certutil -addstore -f Root ${quotedCa(values)} (an administrator's shell).`);
  notes.push('No hosts-file line: the library refuses any that names the API host. It refuses a system or WinHTTP proxy too: turn any proxy off.');
  notes.push(
    `What the route meets: HTTPS on port 443 with the certificate verified for ${route.host ?? 'the address'}, no redirect, both signature headers on every answer (Ed25519 by the key above), an address that is not loopback.`,
  );
  return notes;
}

function cppSheet(values: SandboxValues): TargetSheet {
  const route = cppRoute(values);
  const url = cppUrl(route.host);
  const key = values.publicKey;
  const allowed = `KeyAuthApp.set_allowed_hosts({ "${route.host ?? 'ADDRESS'}" });`;
  return {
    sdk: 'cpp',
    title: 'C++ (official KeyAuth-CPP-Example, x64 with the current library)',
    api: '1.3',
    url,
    code: [
      {
        file: 'main.cpp',
        lines: [
          `std::string name = skCrypt("${values.name}").decrypt();`,
          `std::string ownerid = skCrypt("${values.ownerid}").decrypt();`,
          `std::string version = skCrypt("${values.version}").decrypt();`,
          `std::string url = skCrypt("${url}").decrypt();`,
          `${allowed}   // where it calls set_allowed_hosts({ "keyauth.win" }) after init()`,
        ],
      },
      ...(key === undefined
        ? []
        : [
            { file: 'auth.cpp of the current library (keyauth-cpp-library-1.3API), in place of its three k_pubkey_ lines; then rebuild library_x64.lib', lines: currentLibraryKeyLines(key) },
            { file: "x86/lib/auth.cpp (the example's older copy), in place of the hosted key", lines: [olderCopyKeyLine(key)] },
          ]),
    ],
    lines: [
      { label: 'public key', value: key ?? '(not in the profile)', where: `the sandbox's, in place of the hosted ${HOSTED_KEY_SHORT}` },
      { label: 'host', value: route.host ?? '(none but loopback on this machine)', where: route.ready ? 'the sandbox is served there' : 'once the sandbox is served there' },
      { label: 'port', value: '443', where: 'as the library requires' },
    ],
    sendsHwid: true,
    showsSecret: false,
    notes: cppNotes(values, route),
  };
}

function javaSheet(values: SandboxValues): TargetSheet {
  const api12 = apiUrl(values, '1.2');
  const ca = quotedCa(values);
  return {
    sdk: 'java',
    title: 'Java (Tentoxa/KeyAuth-Java)',
    api: '1.2',
    url: api12,
    code: [{ file: 'your code', lines: [`KeyAuth keyAuthAPI = new KeyAuth("${values.name}", "${values.ownerid}", "${values.version}", "${api12}");`] }],
    lines: [],
    sendsHwid: true,
    showsSecret: false,
    notes: trustNote(values, `import the authority into a truststore: keytool -importcert -noprompt -alias kactl-sandbox -file ${ca} -keystore sandbox.jks -storepass changeit, then java -Djavax.net.ssl.trustStore=sandbox.jks -Djavax.net.ssl.trustStorePassword=changeit …`),
  };
}

function nodeSheet(values: SandboxValues): TargetSheet {
  const api12 = apiUrl(values, '1.2');
  const ca = quotedCa(values);
  return {
    sdk: 'node',
    title: "Node (keyauth-js @keyauthjs/client; and kactl's own client)",
    api: '1.2',
    url: api12,
    code: [],
    lines: [
      { label: 'options.baseUrl', value: api12, where: 'the second argument of new ClientApi(app, options)' },
      { label: 'app.name', value: values.name },
      { label: 'app.ownerid', value: values.ownerid },
      { label: 'app.ver', value: values.version },
      { label: 'KACTL_BASE_URL', value: values.baseUrl, where: 'kactl on another machine or in CI, with KACTL_APP_NAME, KACTL_OWNERID, KACTL_PUBLIC_KEY' },
      { label: 'KACTL_PUBLIC_KEY', value: values.publicKey ?? '' },
    ],
    sendsHwid: false,
    withoutHwid: 'keyauth-js sends no HWID with license()',
    showsSecret: false,
    notes: [
      ...trustNote(values, `run node with NODE_EXTRA_CA_CERTS=${ca} (kactl's own profile for this sandbox trusts it already).`),
      ...(values.caFile === undefined
        ? []
        : [
            values.hostname === KEYAUTH_JS_HOST
              ? `keyauth-js sends "Host: ${KEYAUTH_JS_HOST}" and Node checks the certificate against it: this sandbox's certificate names ${KEYAUTH_JS_HOST}, as it needs.`
              : `keyauth-js sends "Host: ${KEYAUTH_JS_HOST}" and Node checks the certificate against that name, so over HTTPS every keyauth-js call fails here: start the sandbox with  --tls --hostname ${KEYAUTH_JS_HOST}  (kactl asks before its authority may sign for it), or use plain HTTP, where the header does no harm.`,
          ]),
    ],
  };
}

/** What a program on each library changes. */
const SHEETS: Readonly<Record<SdkId, (values: SandboxValues) => TargetSheet>> = {
  python: officialSheet('python'),
  csharp: officialSheet('csharp'),
  cpp: cppSheet,
  php: officialSheet('php'),
  go: officialSheet('go'),
  react: officialSheet('react'),
  java: javaSheet,
  node: nodeSheet,
};

export function targetSheet(sdk: SdkId, values: SandboxValues): TargetSheet {
  return SHEETS[sdk](values);
}

/** The object `kactl sandbox connect <sdk> --json` prints. */
export function sheetValues(sheet: TargetSheet, values: SandboxValues): Record<string, unknown> {
  const hostname = values.hostname;
  return {
    sdk: sheet.sdk,
    api: sheet.api,
    url: sheet.url,
    baseUrl: values.baseUrl,
    name: values.name,
    ownerid: values.ownerid,
    version: values.version,
    publicKey: values.publicKey ?? null,
    ...(sheet.showsSecret ? { secret: values.secret ?? null } : {}),
    tls: values.caFile !== undefined,
    caFile: values.caFile ?? null,
    hostname: hostname ?? null,
    port: portOf(sheet.url),
    ...(sheet.sdk === 'cpp' ? { cpp: cppValues(values) } : {}),
    sendsHwid: sheet.sendsHwid,
    appSettings: sheet.sendsHwid ? [] : [FORCE_HWID_OFF],
    notes: sheet.notes,
  };
}

/** The C++ route and key forms as data (`connect cpp --json`). */
function cppValues(values: SandboxValues): Record<string, unknown> {
  const route = cppRoute(values);
  const key = values.publicKey?.toLowerCase();
  return {
    host: route.host ?? null,
    ready: route.ready,
    startCommands: route.startCommands,
    machineAddresses: values.machineAddresses,
    allowedHosts: route.host === undefined ? [] : [route.host],
    publicKeyHex: key ?? null,
    publicKeyArrays:
      key === undefined
        ? null
        : { obf1: maskedKey(key, CPP_KEY_MASKS[0]), obf1Mask: CPP_KEY_MASKS[0], obf2: maskedKey(key, CPP_KEY_MASKS[1]), obf2Mask: CPP_KEY_MASKS[1], fnv1a: `0x${fnv1a64(key).toString(16).padStart(16, '0')}` },
  };
}

export { FORCE_HWID_OFF };
