/**
 * The little XML the Huawei HiLink web API speaks: a request is `<request>` with child
 * elements in a fixed order (some firmwares are order-sensitive, huawei-lte-api
 * huawei_lte_api/api/Sms.py get_sms_list), an answer is `<response>…</response>` or
 * `<error><code>…</code><message>…</message></error>` (huawei_lte_api/Session.py
 * _check_response_status). Flat enough for a few regular expressions; no XML library.
 */

/** One child element: a value, or nested children (e.g. `Phones` → `Phone`…). */
export type XmlValue = string | number | readonly [string, XmlValue][];

export function requestXml(children: readonly [string, XmlValue][]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><request>${elements(children)}</request>`;
}

function elements(children: readonly [string, XmlValue][]): string {
  return children
    .map(([name, value]) => {
      const inner = typeof value === 'object' ? elements(value) : escapeXml(String(value));
      return `<${name}>${inner}</${name}>`;
    })
    .join('');
}

export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&#(\d+);/g, (_match, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&amp;/g, '&');
}

/** The text of the first `<name>` element in `xml`, unescaped; undefined when absent. */
export function childText(xml: string, name: string): string | undefined {
  const match = new RegExp(`<${name}>([\\s\\S]*?)</${name}>|<${name}\\s*/>`).exec(xml);
  if (!match) return undefined;
  return unescapeXml(match[1] ?? '');
}

/** Every `<name>…</name>` block in `xml` (e.g. each `Message` of an SMS list). */
export function childBlocks(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((match) => match[1] ?? '');
}

/** `<error><code>125002</code>…` → 125002; undefined for a normal response. */
export function errorCodeOf(xml: string): number | undefined {
  const error = /<error>([\s\S]*?)<\/error>/.exec(xml);
  if (!error) return undefined;
  const code = Number(childText(error[1] ?? '', 'code'));
  return Number.isFinite(code) ? code : 0;
}
