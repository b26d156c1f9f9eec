// E-mail messages (.eml, RFC 5322/MIME) and Outlook messages (.msg, email/outlook-message.ts).
// One page per message: the From/To/Cc/Date lines, the
// body text, then each readable attachment's text under an `Attachment: name` line — a message
// is read as one document, so a search hit in an attachment still lands on its message. The
// Subject is the title. Attachments are extracted through the registry by their detected
// format; attached messages and archives count as one nesting level (limits.maxArchiveDepth).

import type { Extraction, ExtractionOptions, FormatFamily } from '../extraction.ts';
import { readMessage } from '../email/message.ts';
import { readOutlookMessage } from '../email/outlook-message.ts';
import { enterContainer, extractNested } from '../nested-extraction.ts';
import { tidyText } from '../text-formats/tidy.ts';

export const emailFamily: FormatFamily = {
  kind: 'email',
  formats: [
    { extension: 'eml', mime: 'message/rfc822', kind: 'email' },
    { extension: 'msg', mime: 'application/vnd.ms-outlook', kind: 'email' },
  ],
  async extract(bytes: Uint8Array, format: string, limits: ExtractionOptions): Promise<Extraction> {
    const own = enterContainer(limits, 'message');
    const message = format === 'msg' ? readOutlookMessage(bytes) : readMessage(bytes);
    const sections: string[] = [message.headerLines.join('\n'), ...message.body.map(tidyText)];
    for (const attachment of message.attachments) {
      const inner = await extractNested(attachment.bytes, attachment.name, own);
      if (inner === null) continue;
      const text = inner.pages.map((page) => page.text).filter((t) => t.trim() !== '').join('\n\n');
      if (text.trim() === '') continue;
      sections.push(`Attachment: ${attachment.name ?? inner.title ?? inner.format}\n${text}`);
    }
    const text = sections.filter((section) => section.trim() !== '').join('\n\n');
    return { format, title: message.subject, pages: [{ number: 1, label: null, text }] };
  },
};
