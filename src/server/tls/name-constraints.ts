/**
 * The authority's name constraints extension (RFC 5280 §4.2.1.10), made and read through
 * @peculiar/asn1-x509's schemas (never DER by hand). Only permitted subtrees are used: DNS
 * names and address blocks (names.ts). Marked critical, as the RFC asks of an authority: a TLS
 * library that cannot apply it must refuse the chain rather than ignore it.
 */
import type * as Asn1X509Namespace from '@peculiar/asn1-x509';
import type * as Asn1SchemaNamespace from '@peculiar/asn1-schema';
import type { X509Module } from './x509.js';
import type { PermittedNames } from './names.js';

export const NAME_CONSTRAINTS_OID = '2.5.29.30';

type Asn1X509 = typeof Asn1X509Namespace;
type Asn1Schema = typeof Asn1SchemaNamespace;

let loaded: Promise<{ asn1: Asn1X509; schema: Asn1Schema }> | undefined;

/** The ASN.1 schemas, loaded with the certificate library (which already holds them). */
function loadSchemas(): Promise<{ asn1: Asn1X509; schema: Asn1Schema }> {
  loaded ??= (async () => {
    const asn1 = (await import('@peculiar/asn1-x509')) as Asn1X509 & { default?: Asn1X509 };
    const schema = (await import('@peculiar/asn1-schema')) as Asn1Schema & { default?: Asn1Schema };
    // Their ESM builds as node loads them, or the CommonJS ones the bundle wraps (under `default`).
    return {
      asn1: asn1.NameConstraints === undefined && asn1.default !== undefined ? asn1.default : asn1,
      schema: schema.AsnConvert === undefined && schema.default !== undefined ? schema.default : schema,
    };
  })();
  return loaded;
}

/** The extension an authority carries to sign only for `permitted`. */
export async function nameConstraintsExtension(x509: X509Module, permitted: PermittedNames): Promise<InstanceType<X509Module['Extension']>> {
  const { asn1, schema } = await loadSchemas();
  const subtrees = [
    ...permitted.dns.map((dNSName) => new asn1.GeneralSubtree({ base: new asn1.GeneralName({ dNSName }) })),
    ...permitted.ip.map((iPAddress) => new asn1.GeneralSubtree({ base: new asn1.GeneralName({ iPAddress }) })),
  ];
  const value = schema.AsnConvert.serialize(new asn1.NameConstraints({ permittedSubtrees: new asn1.GeneralSubtrees(subtrees) }));
  return new x509.Extension(NAME_CONSTRAINTS_OID, true, value);
}

/**
 * The permitted names of a certificate's name constraints, or undefined when it has none (an
 * authority made by an earlier kactl, which may sign for any site). Constraints of other kinds
 * (excluded subtrees, e-mail or URI names) are not kactl's: reported as none.
 */
export async function readNameConstraints(x509: X509Module, certPem: string): Promise<PermittedNames | undefined> {
  const extension = new x509.X509Certificate(certPem).getExtension(NAME_CONSTRAINTS_OID);
  if (extension === null) return undefined;
  const { asn1, schema } = await loadSchemas();
  const parsed = schema.AsnConvert.parse(extension.value, asn1.NameConstraints);
  const dns: string[] = [];
  const ip: string[] = [];
  for (const subtree of parsed.permittedSubtrees ?? []) {
    if (subtree.base.dNSName !== undefined) dns.push(subtree.base.dNSName.toLowerCase());
    else if (subtree.base.iPAddress !== undefined) ip.push(subtree.base.iPAddress);
    else return undefined;
  }
  if ((parsed.excludedSubtrees?.length ?? 0) > 0) return undefined;
  return { dns, ip };
}
