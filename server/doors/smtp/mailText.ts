import type { MailTextSources } from '../../contract/schemas/settingsSchema.js';

export type MailTextSource = (typeof MailTextSources)[number];

/** What of a parsed mail may become the SMS (mailparser fills `text` from the HTML of an HTML-only mail). */
export interface MailContent {
  subject?: string;
  text?: string;
}

export interface MailTextRule {
  source: MailTextSource;
  /** A line that starts with it ends the body: a signature ("-- ", RFC 3676 §4.3) or a reply's quote. */
  cutMarker: string;
}

/**
 * The SMS text of a mail: the subject, the body, or the subject on its own line above the body.
 * The body ends at the first line starting with the cut marker, and at the first quoted line
 * (`>`) with the attribution line a mail client puts above it ("On … wrote:").
 */
export function smsTextOfMail(mail: MailContent, rule: MailTextRule): string {
  const subject = (mail.subject ?? '').trim();
  const body = rule.source === 'subject' ? '' : cutBody(mail.text ?? '', rule.cutMarker);
  if (rule.source === 'body') return body;
  if (rule.source === 'subject') return subject;
  return [subject, body].filter((part) => part !== '').join('\n');
}

function cutBody(text: string, marker: string): string {
  // A trailing space of the marker ("-- ") is often lost in transit: the bare form counts too.
  const bareMarker = marker.trimEnd();
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (const line of lines) {
    if (line.startsWith(marker) || (bareMarker !== '' && line === bareMarker)) break;
    if (line.startsWith('>')) {
      while (kept.length > 0 && (kept.at(-1) ?? '').trim() === '') kept.pop();
      if (/wrote:\s*$/i.test(kept.at(-1) ?? '')) kept.pop();
      break;
    }
    kept.push(line);
  }
  return kept.join('\n').trim();
}
