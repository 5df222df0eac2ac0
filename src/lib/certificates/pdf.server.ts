/**
 * The printable certificate: one A4 landscape page with an embedded font that covers Spanish and a QR
 * code of the verification link, drawn with the documents module.
 */
import { DOCUMENT_COLORS, DOCUMENT_FONT, drawCentred, drawQr, fittingSize, newDocument, PAGE_SIZES, printable, wrapText } from '../documents';
import { certificateTexts, type CertificateFacts } from './certificates';

/** The embedded font (see `documents/font.server`). */
export const CERTIFICATE_FONT = DOCUMENT_FONT;

/** A4 landscape, in points. */
const { width: PAGE_WIDTH, height: PAGE_HEIGHT } = PAGE_SIZES.a4Landscape;
const { ink: INK, muted: MUTED, accent: ACCENT } = DOCUMENT_COLORS;
/** Width the centred lines may use. */
const TEXT_WIDTH = 680;

/**
 * The printable certificate: one A4 landscape page with the issuer, title, holder, course, length,
 * date, verification code and URL, and a QR code of the URL; the font is embedded (subset) so every
 * Spanish character prints, and the document's title, author, subject, language and dates are set.
 */
export async function certificatePdf(facts: CertificateFacts): Promise<Uint8Array> {
  const t = certificateTexts(facts.locale);
  const holder = printable(facts.holderName);
  const course = printable(facts.courseName);
  const issuer = printable(facts.issuerName);
  const issued = new Date(facts.issuedAt);

  const { doc, font } = await newDocument({
    title: `${t.title}: ${course} – ${holder}`,
    author: issuer,
    subject: `${t.title} – ${t.verificationCode}: ${facts.code}`,
    keywords: [facts.code, course],
    language: facts.locale,
    creator: issuer,
    date: issued,
  });

  const page = doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
  page.drawRectangle({ x: 22, y: 22, width: PAGE_WIDTH - 44, height: PAGE_HEIGHT - 44, borderColor: ACCENT, borderWidth: 3 });
  page.drawRectangle({ x: 30, y: 30, width: PAGE_WIDTH - 60, height: PAGE_HEIGHT - 60, borderColor: ACCENT, borderWidth: 0.75 });

  drawCentred(page, font, issuer, PAGE_HEIGHT - 92, fittingSize(font, issuer, 16, TEXT_WIDTH, 9), ACCENT);
  drawCentred(page, font, t.title, PAGE_HEIGHT - 150, 36, INK);
  drawCentred(page, font, t.awardedTo, PAGE_HEIGHT - 192, 14, MUTED);
  drawCentred(page, font, holder, PAGE_HEIGHT - 236, fittingSize(font, holder, 32, TEXT_WIDTH, 14), INK);
  drawCentred(page, font, t.forCompleting, PAGE_HEIGHT - 274, 14, MUTED);
  const courseSize = wrapText(font, course, 22, TEXT_WIDTH, 9).length <= 2 ? 22 : 16;
  const courseLines = wrapText(font, course, courseSize, TEXT_WIDTH, courseSize === 22 ? 2 : 3);
  courseLines.forEach((line, i) => drawCentred(page, font, line, PAGE_HEIGHT - 308 - i * courseSize * 1.2, courseSize, INK));
  drawCentred(page, font, `${t.hours(facts.courseHours)} · ${t.date(facts.issuedAt)}`, 178, 14, INK);

  const qrSide = 104;
  const qrX = PAGE_WIDTH - 64 - qrSide;
  drawQr(page, facts.verifyUrl, qrX, 52, qrSide);
  const left = 64;
  const blockWidth = qrX - left - 24;
  page.drawText(`${t.verificationCode}: ${facts.code}`, { x: left, y: 96, size: 12, font, color: INK });
  page.drawText(`${t.verifyAt}:`, { x: left, y: 78, size: 10, font, color: MUTED });
  page.drawText(facts.verifyUrl, { x: left, y: 63, size: fittingSize(font, facts.verifyUrl, 10, blockWidth, 5), font, color: ACCENT });

  return doc.save();
}
