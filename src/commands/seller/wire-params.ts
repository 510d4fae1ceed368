/**
 * Flags and arguments → the operation's wire parameters. The catalog says what each one is;
 * this applies it: switches become 1/0, secrets come from the flag, stdin or a hidden prompt,
 * a missing required value is asked for on a terminal and otherwise stops with exit 2 naming
 * the flag, and the entry's fixed parameters (`user=all`) are added. A parameter an operation's
 * extension record (extensions.ts) takes from elsewhere is asked of that record first.
 */
import type { Context } from '../../context.js';
import { fixedParamsFor, reservedPositionalValues } from '../../api/seller-catalog/index.js';
import type { ParamSpec, SellerOp } from '../../api/seller-catalog/index.js';
import { UsageError } from '../../errors.js';
import { readStdinText, valueOrAsk } from '../../io/ask.js';
import { paramKey, stdinKey } from './param-options.js';
import { valueProblem, wireValue } from '../../api/seller-param-values.js';
import { SELLER_EXTENSIONS } from './extensions.js';

export interface FlagInput {
  /** The command's positional argument, if given. */
  positional: string | undefined;
  /** commander's option values. */
  opts: Readonly<Record<string, unknown>>;
  /** Whether the user gave the option stored under `key`. */
  given: (key: string) => boolean;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A value the operation's extension record takes from somewhere other than the flag alone. */
async function extensionValue(ctx: Context, op: SellerOp, param: ParamSpec, input: FlagInput): Promise<string | undefined> {
  const from = SELLER_EXTENSIONS[op.type]?.params?.[param.wire];
  return from?.(ctx, { flagValue: text(input.opts[paramKey(param.flag)]), opts: input.opts });
}

async function valueFor(ctx: Context, op: SellerOp, param: ParamSpec, input: FlagInput): Promise<string | undefined> {
  if (param.positional) {
    const value = input.positional;
    if (value !== undefined && reservedPositionalValues(op).includes(value)) {
      throw new UsageError(`"${value}" would act on every record without the safeguards; use --all instead.`);
    }
    if (value !== undefined) return value;
    return valueOrAsk(ctx, { value: undefined, flag: `<${param.flag}>`, label: param.description, validate: (v) => valueProblem(param, v) ?? true });
  }
  const special = await extensionValue(ctx, op, param, input);
  if (special !== undefined) return special;
  if (param.type === 'bool01') {
    const given = input.opts[paramKey(param.flag)];
    if (given === true) return '1';
    // `--no-<flag>` of a negatable switch; a required switch (`authed`) is sent as 0 when absent:
    // the server refuses it missing.
    if (given === false || param.required) return '0';
    return undefined;
  }
  const flagValue = text(input.opts[paramKey(param.flag)]);
  if (param.secret && input.opts[stdinKey(param.flag)] === true) {
    if (flagValue !== undefined) throw new UsageError(`Give --${param.flag} or --${param.flag}-stdin, not both.`);
    return readStdinText(ctx, `--${param.flag}-stdin`);
  }
  if (flagValue !== undefined) return flagValue;
  const defaulted = SELLER_EXTENSIONS[op.type]?.defaulted?.includes(param.flag) === true;
  if (!param.required && !defaulted) return undefined;
  return valueOrAsk(ctx, {
    value: undefined,
    flag: `--${param.flag}`,
    label: param.unit ? `${param.description} [${param.unit}]` : param.description,
    ...(param.secret ? { secret: true, alternative: `--${param.flag}-stdin` } : {}),
    validate: (v) => valueProblem(param, v) ?? true,
  });
}

/** The wire parameters for `op` from what the user gave, asking for what is missing. */
export async function collectWireParams(ctx: Context, op: SellerOp, input: FlagInput): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const param of op.params) {
    const value = await valueFor(ctx, op, param, input);
    // A flag's value and a prompt's answer alike: `--expiry 12h` is sent as days.
    if (value !== undefined) params[param.wire] = param.unit === undefined ? value : wireValue(param, value);
  }
  // A change made only of optional values (`app set`, `blacklists create`) with none given would
  // be answered "success" by the server while changing nothing.
  if (op.effect === 'write' && op.params.length > 0 && op.params.every((p) => !p.required) && Object.keys(params).length === 0) {
    throw new UsageError(`Nothing to change: give at least one of ${op.params.map((p) => `--${p.flag}`).join(', ')}.`);
  }
  return { ...params, ...fixedParamsFor(op) };
}
