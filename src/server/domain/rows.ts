/**
 * Row shapes of the store's tables (store/schema-v1.ts), as better-sqlite3 returns them.
 * Times are Unix seconds; flags are 0 or 1.
 */
import type { ShopProductSetting } from '../../api/seller-catalog/shop-products.js';

/** With the reseller product ids per shop and balance unit (SellApp: listing slugs). */
export interface AppRow extends Readonly<Record<ShopProductSetting, string | null>> {
  readonly id: number;
  readonly name: string;
  readonly ownerid: string;
  readonly secret: string;
  readonly sellerKey: string;
  readonly owner: string;
  readonly enabled: number;
  readonly banned: number;
  readonly paused: number;
  readonly hwidcheck: number;
  readonly vpnblock: number;
  readonly ver: string;
  readonly download: string | null;
  readonly webdownload: string | null;
  readonly webhook: string | null;
  readonly resellerstore: string | null;
  readonly sellixsecret: string | null;
  readonly hash: string | null;
  readonly hashcheck: number;
  readonly sessionLength: number;
  readonly forceEncryption: number;
  readonly forceHwid: number;
  readonly minHwid: number;
  readonly minUsernameLength: number;
  readonly blockLeakedPasswords: number;
  readonly tokensystem: number;
  readonly killOtherSessions: number;
  readonly cooldown: number;
  readonly createdAt: number;
  readonly shoppysecret: string | null;
  readonly sellappsecret: string | null;
  /** Comma-separated CIDRs treated as VPN addresses. */
  readonly vpnranges: string;
}

export interface AccountRow {
  readonly id: number;
  readonly username: string;
  readonly emailHash: string | null;
  readonly passwordHash: string | null;
  readonly role: string;
  readonly appId: number | null;
  readonly owner: string | null;
  readonly balance: string;
  readonly keylevels: string;
  readonly perms: number;
  readonly createdAt: number;
}

export interface SubscriptionRow {
  readonly id: number;
  readonly appId: number;
  readonly name: string;
  readonly level: string;
}

export interface UserRow {
  readonly id: number;
  readonly appId: number;
  readonly username: string;
  readonly emailHash: string | null;
  readonly passwordHash: string | null;
  readonly hwid: string | null;
  readonly ip: string | null;
  readonly owner: string | null;
  readonly createdate: number;
  readonly lastlogin: number | null;
  readonly banned: string | null;
  readonly cooldown: number | null;
  readonly twofaSecret: string | null;
  readonly twofaEnabled: number;
  /** Last HWID reset on the customer panel (Unix seconds), or null. */
  readonly hwidResetAt: number | null;
}

export interface UserSubRow {
  readonly id: number;
  readonly appId: number;
  readonly userId: number;
  readonly subscription: string;
  /** Unix time; while `paused` the remaining seconds. */
  readonly expiry: number;
  readonly paused: number;
  readonly key: string | null;
}

export type LicenseStatus = 'Not Used' | 'Used' | 'Banned' | 'Paused';

export interface LicenseRow {
  readonly id: number;
  readonly appId: number;
  readonly key: string;
  readonly note: string | null;
  /** Duration in seconds, granted from the moment of use. */
  readonly expires: number;
  readonly status: LicenseStatus;
  readonly level: string;
  readonly genby: string | null;
  readonly gendate: number;
  readonly usedon: number | null;
  readonly usedby: string | null;
  readonly banned: string | null;
}

export type ApiVersion = '1.2' | '1.3';

export interface SessionRow {
  readonly id: string;
  readonly appId: number;
  readonly credential: string | null;
  readonly validated: number;
  readonly expiry: number;
  readonly createdAt: number;
  /** The client's init `enckey`; the 1.2 HMAC key after init is `${enckey}-${secret}`. */
  readonly enckey: string | null;
  readonly ip: string | null;
  readonly api: ApiVersion;
}

export interface GlobalVarRow {
  readonly id: number;
  readonly appId: number;
  readonly varid: string;
  readonly msg: string;
  readonly authed: number;
}

export interface UserVarRow {
  readonly id: number;
  readonly appId: number;
  readonly userId: number;
  readonly name: string;
  readonly data: string;
  readonly readOnly: number;
}

export interface ChatChannelRow {
  readonly id: number;
  readonly appId: number;
  readonly name: string;
  readonly delay: number;
}

export interface ChatMessage {
  readonly author: string;
  readonly message: string;
  readonly timestamp: number;
}

export interface ChatMuteRow {
  readonly id: number;
  readonly appId: number;
  readonly user: string;
  readonly time: number;
}

export interface WebhookRow {
  readonly id: number;
  readonly appId: number;
  readonly webid: string;
  readonly baselink: string;
  readonly useragent: string;
  readonly authed: number;
}

export interface FileRow {
  readonly pk: number;
  readonly appId: number;
  readonly id: string;
  readonly name: string;
  readonly url: string;
  readonly size: string;
  readonly uploaddate: number;
  readonly authed: number;
}

export type BlacklistType = 'ip' | 'hwid' | 'region' | 'country' | 'asn';

export interface BlacklistRow {
  readonly id: number;
  readonly appId: number;
  readonly type: BlacklistType;
  readonly hwid: string | null;
  readonly ip: string | null;
  readonly region: string | null;
  readonly country: string | null;
  readonly asn: string | null;
}

export interface WhitelistRow {
  readonly id: number;
  readonly appId: number;
  readonly ip: string;
}

export interface LogRow {
  readonly id: number;
  readonly appId: number;
  readonly logdate: number;
  readonly logdata: string;
  readonly credential: string | null;
  readonly pcuser: string | null;
}

export interface TokenRow {
  readonly id: number;
  readonly appId: number;
  readonly token: string;
  readonly assigned: string | null;
  readonly type: 'user' | 'license';
  readonly banned: number;
  readonly reason: string;
  readonly hash: string | null;
}

export interface LoaderButtonRow {
  readonly id: number;
  readonly appId: number;
  readonly text: string;
  readonly value: string;
}

export interface OutboxRow {
  readonly id: number;
  readonly appId: number | null;
  readonly kind: string;
  readonly recipient: string;
  readonly subject: string;
  readonly text: string;
  readonly link: string | null;
  /** JSON text. */
  readonly data: string;
  readonly createdAt: number;
}
