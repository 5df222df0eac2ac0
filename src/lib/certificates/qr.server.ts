/**
 * The QR code of a certificate's verification link as an image, PNG or SVG, for its pages (the PDF
 * draws its own, see `pdf.server.ts`).
 */
import QRCode from 'qrcode';

/** A PNG of the QR code of `text` (error correction M, 4-module quiet zone, 8 pixels a module). */
export async function qrPng(text: string): Promise<Uint8Array> {
  const png = await QRCode.toBuffer(text, { type: 'png', errorCorrectionLevel: 'M', margin: 4, scale: 8 });
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength);
}

/**
 * An SVG of the QR code of `text` (error correction M, 4-module quiet zone) that scales to its box.
 * With `label` (e.g. `certificateTexts(locale).qrAlt`) it is `role="img"` with that accessible name,
 * for use inline; as an `<img>` source the `alt` attribute names it instead.
 */
export async function qrSvg(text: string, label?: string): Promise<string> {
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  if (label === undefined) return svg;
  const escaped = label.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return svg.replace(/<svg\b/, `<svg role="img" aria-label="${escaped}"`).replace(/(<svg\b[^>]*>)/, `$1<title>${escaped}</title>`);
}
