/**
 * The exact refusals docs/protocol/seller-api.md gives for a missing or malformed parameter of one operation.
 * The catalog says what a parameter must be; this table says how the real server words the
 * refusal where the page records it. Anything not listed gets the generic wording of params.ts.
 */
import { ownValue } from '../../util/own.js';
import type { HostedFailureStatus } from '../dispatch/types.js';

export interface ParamMessages {
  /** The parameter is absent (or empty, which the sanitiser turns into absent). */
  readonly missing?: string;
  /** The hosted status of the `missing` answer where it is not 200 (`add` without expiry: 406). */
  readonly missingStatus?: HostedFailureStatus;
  /** Not a number, not 0/1, not one of the choices, or out of range. */
  readonly invalid?: string;
  /** Longer than the catalog's maxLength. */
  readonly tooLong?: string;
}

const EXPIRY_DAYS = 'Expiry not set correctly, must be number of days';
const AUTHED = "Authed paramater must be 1 if you want to require login first, or 0 if you don't want to.";
const DATA_TOO_LONG = 'Data is too long. Must be less than 1000 characters. Use files for larger data';
const LEVEL = { invalid: 'Level must be a number', tooLong: 'Level too long' } as const;

/** `type` → wire name → messages. */
export const PARAM_MESSAGES: Readonly<Record<string, Readonly<Record<string, ParamMessages>>>> = {
  add: {
    // E answers a non-numeric expiry 400; the hosted mode never answers 400, so that one stays 200.
    expiry: { missing: 'Expiry not set', missingStatus: 406, invalid: 'Expiry must a number of days' },
    level: { tooLong: 'Level too long' },
  },
  edit: { expiry: { missing: 'You must set expiry value' } },
  setnote: { note: { tooLong: 'Note must be less than 69 characters' } },
  adduser: { user: { missing: 'You must specify username.' }, expiry: { missing: EXPIRY_DAYS, invalid: EXPIRY_DAYS } },
  extend: { expiry: { missing: EXPIRY_DAYS, invalid: EXPIRY_DAYS } },
  subtract: {
    seconds: { missing: 'Seconds specified must be greater than zero!', invalid: 'Seconds specified must be greater than zero!' },
  },
  banuser: { reason: { missing: 'Ban reason is missing' } },
  addsub: { level: { missing: LEVEL.invalid, ...LEVEL } },
  countsubs: { name: { missing: 'Paramater with name "name" missing' } },
  setvar: { var: { missing: 'Must specify variable name' }, data: { missing: 'Must specify variable data' } },
  addvar: { data: { tooLong: DATA_TOO_LONG }, authed: { missing: AUTHED, invalid: AUTHED } },
  editvar: { data: { tooLong: DATA_TOO_LONG } },
  addchannel: { name: { missing: 'Channel name not specified' } },
  muteuser: { time: { missing: 'Invalid time paramater, must be number', invalid: 'Invalid time paramater, must be number' } },
  upload: { url: { missing: 'URL is invalid' } },
  editfile: { url: { missing: 'URL is invalid' } },
  addwebhook: { baseurl: { missing: "URL isn't a valid URL!" }, authed: { missing: AUTHED, invalid: AUTHED } },
  delblack: { blacktype: { missing: 'Invalid blacklist type!', invalid: 'Invalid blacklist type!' } },
  updatesettings: { hwidcheck: { invalid: 'The hwidcheck value must be "true" or "false"' } },
  addAccount: {
    role: { missing: 'Role options are Manager or Reseller!', invalid: 'Role options are Manager or Reseller!' },
    email: { missing: 'Unhandled Error! Contact support if you need help' },
    perms: { invalid: 'Invalid permission value. You must have at least one permission flag enabled!' },
  },
  setbalance: { username: { missing: 'Username Not Set' } },
};

export function paramMessages(type: string, wire: string): ParamMessages {
  const forType = ownValue(PARAM_MESSAGES, type);
  return (forType === undefined ? undefined : ownValue(forType, wire)) ?? {};
}
