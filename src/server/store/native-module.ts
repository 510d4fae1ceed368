/**
 * better-sqlite3, the sandbox's store, is a native module: compiled for one Node ABI
 * (NODE_MODULE_VERSION). Installed under one Node and run under another (an nvm switch, a Node
 * upgrade), it refuses to load. This file tells that failure apart from others and names the
 * one command that fixes it, run in the folder that holds the module.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { SetupError } from '../../api/errors.js';
import { retain } from './native-handles.js';

const MODULE = 'better-sqlite3';

/** The folder whose node_modules holds better-sqlite3 (kactl's install folder), if it resolves. */
export function installFolder(): string | undefined {
  try {
    const manifest = createRequire(import.meta.url).resolve(`${MODULE}/package.json`);
    // <folder>/node_modules/better-sqlite3/package.json
    return path.dirname(path.dirname(path.dirname(manifest)));
  } catch {
    return undefined;
  }
}

/** The command that rebuilds the module for the Node running now. */
export function rebuildCommand(folder = installFolder()): string {
  const quoted = folder === undefined ? undefined : `'${folder.replace(/'/g, `'\\''`)}'`;
  return quoted === undefined ? `npm rebuild ${MODULE}` : `cd ${quoted} && npm rebuild ${MODULE}`;
}

/** True when `error` is the module's binary failing to load (not a database error). */
function isLoadFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as NodeJS.ErrnoException).code === 'ERR_DLOPEN_FAILED') return true;
  return /NODE_MODULE_VERSION|better_sqlite3\.node|Could not locate the bindings file|invalid ELF header|wrong ELF class/.test(error.message);
}

/**
 * One sentence for a module that does not load in this Node, with the rebuild command; undefined
 * for any other error.
 */
export function nativeModuleFailure(error: unknown, nodeVersion: string): SetupError | undefined {
  if (!isLoadFailure(error)) return undefined;
  const message = (error as Error).message;
  const built = /NODE_MODULE_VERSION (\d+)\. This version of Node\.js requires\s+NODE_MODULE_VERSION (\d+)/.exec(message);
  const why = built
    ? `it was built for another Node (NODE_MODULE_VERSION ${built[1]}; Node ${nodeVersion} needs ${built[2]})`
    : `it did not load (${message.split('\n')[0]!.trim()})`;
  return new SetupError(`The sandbox's database module (${MODULE}) does not work in Node ${nodeVersion}: ${why}; rebuild it with: ${rebuildCommand()}`, {
    cause: error,
  });
}

/** Loads the module and opens an in-memory database, as the sandbox would; throws what it meets. */
export function loadNativeModule(): void {
  type DatabaseClass = new (file: string) => { close(): void };
  const Database = createRequire(import.meta.url)(MODULE) as DatabaseClass;
  // Kept, like every handle the sandbox makes (native-handles.ts says why).
  retain(new Database(':memory:')).close();
}
