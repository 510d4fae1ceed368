/**
 * A catalog parameter as a commander option: the flag, its value placeholder (the unit where
 * there is one: `--expiry <days>`), the checks on its value, and the key its value is stored
 * under. Loaded to build `--help`, so it imports only commander and catalog types.
 */
import { InvalidArgumentError, Option } from 'commander';
import type { ParamSpec } from '../../api/seller-catalog/index.js';
import { durationHint, fractionalAmount, hasUnit, parseDuration, UNIT_SECONDS } from '../../util/duration.js';
import type { DurationUnit } from '../../util/duration.js';
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

/**
 * What is wrong with `raw` as a value of `param`, in words that name the unit, or undefined.
 * Shared by flag parsing and by prompts, so both refuse the same values the same way.
 */
export function valueProblem(param: ParamSpec, raw: string): string | undefined {
  if (param.unit) return durationProblem(param, raw);
  if (param.type === 'integer' && !/^-?\d+$/.test(raw.trim())) return 'Give a whole number, e.g. 30.';
  if (param.type === 'number' && !/^-?(\d+(\.\d*)?|\.\d+)$/.test(raw.trim())) return 'Give a number, e.g. 30 or 0.5.';
  if (param.type === 'booltext' && raw !== 'true' && raw !== 'false') return 'Give true or false.';
  if (param.type === 'enum' && !(param.choices ?? []).includes(raw)) return `Give one of ${(param.choices ?? []).join(', ')}.`;
  if (param.maxLength !== undefined && raw.length > param.maxLength) return `At most ${param.maxLength} characters (this has ${raw.length}).`;
  return undefined;
}

/**
 * A parameter with a unit takes a duration (util/duration.ts): a bare number in the unit, or
 * `30d`, `12h`, `90m`, `45s`, `2w`. Where the server stores whole units (seconds), a duration
 * that is not a whole number of them is refused rather than rounded.
 */
function durationProblem(param: ParamSpec, raw: string): string | undefined {
  const unit = param.unit!;
  const seconds = parseDuration(raw, unit);
  const whole = param.type === 'integer';
  const wholeAmount = hasUnit(raw) ? seconds !== undefined && wholeUnits(seconds, unit) !== undefined : /^-?\d+$/.test(raw.trim());
  if (seconds === undefined || (whole && !wholeAmount)) return durationHint(unit, whole);
  if (param.maxLength !== undefined && raw.length > param.maxLength) return `At most ${param.maxLength} characters (this has ${raw.length}).`;
  return undefined;
}

/**
 * A checked value as the wire takes it: a duration with its unit written out (`30d`) becomes a
 * number of the parameter's unit (`30` days, `2592000` seconds); anything else is sent as given.
 */
export function wireValue(param: ParamSpec, raw: string): string {
  if (param.unit === undefined || !hasUnit(raw)) return param.type === 'integer' || param.type === 'number' ? raw.trim() : raw;
  const seconds = parseDuration(raw, param.unit)!;
  return param.type === 'integer' ? String(wholeUnits(seconds, param.unit)) : fractionalAmount(seconds, param.unit);
}

/** `seconds` as a whole number of `unit` (`1.1h` is 3960 s, whatever floating point says), or undefined. */
function wholeUnits(seconds: number, unit: DurationUnit): number | undefined {
  const amount = seconds / UNIT_SECONDS[unit];
  return Math.abs(amount - Math.round(amount)) < 1e-6 ? Math.round(amount) : undefined;
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
