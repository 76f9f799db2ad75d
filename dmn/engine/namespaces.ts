import { withNewerBoxed } from './newer-boxed.js';

/**
 * Current DMN modelers export DMN 1.4 and 1.5. A document in those namespaces that uses only
 * DMN 1.3 constructs is read as DMN 1.3; an element they added is reported by name.
 * Diagram interchange (DMNDI) of any version is dropped before parsing: it never affects a
 * decision and never fails a load.
 */
export const DMN13_NAMESPACE = 'https://www.omg.org/spec/DMN/20191111/MODEL/';

const NEWER_NAMESPACES: Readonly<Record<string, string>> = {
  'https://www.omg.org/spec/DMN/20211108/MODEL/': 'DMN 1.4',
  'https://www.omg.org/spec/DMN/20230324/MODEL/': 'DMN 1.5',
};

export interface MappedDocument {
  readonly xml: string;
  /** `DMN 1.4` or `DMN 1.5` when the document was written in that namespace, else null. */
  readonly version: string | null;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Every prefix (or '' for the default namespace) bound to a DMNDI namespace of any version.
function dmndiPrefixes(xml: string): string[] {
  const prefixes = new Set<string>();
  for (const match of xml.matchAll(/xmlns(?::([\w.-]+))?\s*=\s*["']([^"']*\/DMNDI\/?)["']/g)) prefixes.add(match[1] ?? '');
  return [...prefixes];
}

function withoutDiagrams(xml: string): string {
  let out = xml;
  for (const prefix of dmndiPrefixes(xml)) {
    const tag = escapeRegExp(prefix === '' ? 'DMNDI' : `${prefix}:DMNDI`);
    out = out.replace(new RegExp(`<${tag}(?:\\s[^>]*)?/>|<${tag}(?:\\s[^>]*)?>[\\s\\S]*?</${tag}\\s*>`, 'g'), '');
  }
  return out;
}

/** Maps DMN 1.4/1.5 model namespaces to DMN 1.3, their boxed expressions to ours, and removes DMNDI. */
export function mapNamespaces(xml: string): MappedDocument {
  let version: string | null = null;
  let mapped = xml;
  for (const [uri, name] of Object.entries(NEWER_NAMESPACES)) {
    if (!mapped.includes(uri)) continue;
    version = name;
    mapped = mapped.split(uri).join(DMN13_NAMESPACE);
  }
  const withoutDiagram = withoutDiagrams(mapped);
  return { xml: version === null ? withoutDiagram : withNewerBoxed(withoutDiagram), version };
}

/** A parse warning about an element the DMN 1.3 meta-model does not know, as a message naming it. */
export function newerElement(message: string, version: string): string | null {
  const element = /unparsable content <([^>\s/]+)/.exec(message)?.[1];
  return element === undefined ? null : `element <${element}> is not a DMN 1.3 construct (the document is ${version}); only DMN 1.3 constructs are supported`;
}
