/**
 * A catalog parameter as a commander option: the flag, its value placeholder (the unit where
 * there is one: `--expiry <days>`), the checks on its value, and the key its value is stored
 * under. Loaded to build `--help`, so it imports only commander, catalog types and the value
 * checks (src/api/seller-param-values.ts).
 */
import { InvalidArgumentError, Option } from 'commander';
import type { ParamSpec } from '../../api/seller-catalog/index.js';
import { valueProblem } from '../../api/seller-param-values.js';
import { lowerFirst } from './wording.js';

/**
 * An option stored under a key of our choosing. Catalog flags may be spelt like a global option
 * (`team balance --app-name`, `app set --app-version`); commander would store them under the
 * global's attribute (`appName`) and the global-option reader would take them for the global.
 */
export class KeyedOption extends Option {
  private readonly storeKey: string;

  constructor(flags: string, description: string, storeKey: string) {
    super(flags, description);
    this.storeKey = storeKey;
  }

  override attributeName(): string {
    return this.storeKey;
  }
}

/** Where a parameter's flag value is stored in `command.opts()`. */
export function paramKey(flag: string): string {
  return `param:${flag}`;
}

/** Where `--<flag>-stdin` of a secret parameter is stored. */
export function stdinKey(flag: string): string {
  return `param:${flag}-stdin`;
}

/** Where a selector (`--all`, `--used`) is stored. */
export function selectorKey(selector: string): string {
  return `selector:${selector}`;
}

/** The value placeholder in help: the unit, else what the value is. */
function placeholder(param: ParamSpec): string {
  if (param.unit) return param.unit;
  if (param.type === 'booltext') return 'true|false';
  if (param.type === 'integer') return 'n';
  if (param.type === 'number') return 'number';
  return param.flag;
}

function parserFor(param: ParamSpec): (raw: string) => string {
  return (raw) => {
    const problem = valueProblem(param, raw);
    if (problem !== undefined) throw new InvalidArgumentError(problem);
    return param.type === 'integer' || param.type === 'number' ? raw.trim() : raw;
  };
}

/** The help line of a parameter: its description, the server default, and extra words. */
export function paramDescription(param: ParamSpec, extra?: string): string {
  const parts = [lowerFirst(param.description)];
  if (param.serverDefault !== undefined && param.type !== 'bool01') parts.push(`(server default: ${param.serverDefault})`);
  if (param.secret) parts.push('(visible in shell history: prefer the prompt or --' + param.flag + '-stdin)');
  if (extra) parts.push(extra);
  return parts.join(' ');
}

/**
 * The options for one parameter: `--flag <value>` (a switch for `bool01`), plus
 * `--flag-stdin` for a secret, so a script never needs it in argv.
 */
export function optionsForParam(param: ParamSpec, extra?: string): Option[] {
  const description = paramDescription(param, extra);
  if (param.type === 'bool01') {
    const on = new KeyedOption(`--${param.flag}`, description, paramKey(param.flag));
    // Both forms store under one key: true, false, or absent when neither is given.
    return param.negatable ? [on, new KeyedOption(`--no-${param.flag}`, `the opposite of --${param.flag} (sends ${param.wire}=0)`, paramKey(param.flag))] : [on];
  }
  const option = new KeyedOption(`--${param.flag} <${placeholder(param)}>`, description, paramKey(param.flag));
  if (param.type === 'enum' || param.type === 'booltext') option.choices(param.choices ?? ['true', 'false']);
  // Choices and a custom parser exclude each other in commander; choices already check the value.
  else option.argParser(parserFor(param));
  const options: Option[] = [option];
  for (const alias of param.flagAliases ?? []) {
    const hidden = new KeyedOption(`--${alias} <${placeholder(param)}>`, `same as --${param.flag}`, paramKey(param.flag)).hideHelp();
    options.push(param.type === 'enum' || param.type === 'booltext' ? hidden.choices(param.choices ?? ['true', 'false']) : hidden.argParser(parserFor(param)));
  }
  if (param.secret) options.push(new KeyedOption(`--${param.flag}-stdin`, `read --${param.flag} from stdin`, stdinKey(param.flag)));
  return options;
}
